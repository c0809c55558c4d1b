/**
 * The breaking-change check (docs/breaking.md): compare an IDL with a baseline and say which
 * changes break which clients. The CLI's `-breaking` and the plugin's `breaking` option are thin
 * shells over this.
 */
export { acceptDirectives, acceptFlag, type Acceptance, type AcceptProblem } from './accept.js';
export { BaselineError, readBaseline, type BaselineOptions } from './baseline.js';
export { checkBreaking, type BreakingCheckInput, type BreakingReport, type ReportedChange } from './check.js';
export { contractFromJson, contractFromModel, type ChangeLocation, type Contract } from './contract.js';
export { compareContracts, type ContractChange } from './diff.js';
export { travelDirections, type TravelDirection } from './directions.js';
export { breaksAt, CHECK_LEVELS, isCheckLevel, type ChangeLevel, type CheckLevel } from './levels.js';
export { changeLine, formatReport, locationText, reportJson, summaryLine } from './report.js';
export { RULES, ruleById, type Rule, type RuleId } from './rules.js';
