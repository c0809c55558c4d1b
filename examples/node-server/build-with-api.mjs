// Builds with webpack.config.js or rspack.config.js through the bundler's JS API, which is what
// `npx webpack` (webpack-cli) and `npx rspack` (@rspack/cli) do with the same files; this repository
// installs neither command. Usage: `node build-with-api.mjs webpack` or `node build-with-api.mjs rspack`.
const bundler = process.argv[2];
if (bundler !== 'webpack' && bundler !== 'rspack') {
  console.error('usage: node build-with-api.mjs webpack|rspack');
  process.exit(2);
}

const { default: config } = await import(`./${bundler}.config.js`);
const compile = bundler === 'webpack' ? (await import('webpack')).default : (await import('@rspack/core')).rspack;
const compiler = compile(config);

compiler.run((error, stats) => {
  compiler.close(() => {
    if (error) {
      console.error(error.message);
      process.exitCode = 1;
    } else if (stats.hasErrors()) {
      console.error(stats.toString({ all: false, errors: true }));
      process.exitCode = 1;
    } else {
      console.log(stats.toString({ all: false, assets: true, colors: false }));
    }
  });
});
