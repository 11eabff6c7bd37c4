// The rounds module's public entry point: other modules and boot/ import only from here.
export {
  createRoundClosedError,
  createRoundNotFoundError,
  createRoundNotOpenError,
  describeRound,
  isRoundClosed,
  isRoundOpen,
  isRoundOpenForWriteSql,
  listRoundPolicies,
  readClosesAt,
  readRoundPolicy,
  roundClosesAtSql,
  startingRoundSql,
  type RoundRow,
  type RoundTimes,
} from './round-policy';
export {
  RoundExistsError,
  RoundInvalidError,
  RoundNotFoundError,
  addRound,
  findRound,
  listRounds,
  syncPartnerRounds,
  updateRound,
  type Round,
  type RoundChanges,
} from './rounds-store';
export { summarizeRound } from './round-summary';
/** Read-only, for other modules' joins (applications.round_code). */
export { rounds } from './schema';
