// The events that are a fault's action on the backend (what a kill, a scale step or a
// rollout costs is counted per action: ingest/fault-cost.js). A file of its own so that
// ingest reads the list without loading every fault module through schedule.js (~12 ms of
// each `tailgate ingest`); schedule.js re-exports it with the rest of the registry.
export const FAULT_ACTIONS = Object.freeze(['pod-killed', 'pod-terminating', 'scale', 'rollout-restart']);
