/** The Python client generator (docs/generator.md, "Python"). */
export { generatePythonFiles, pythonHeader, type PythonGenerationOptions } from './generate-python.js';
export { isFreePythonName } from './python-names.js';
