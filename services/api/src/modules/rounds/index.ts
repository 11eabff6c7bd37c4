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
export { rounds } from './schema';
