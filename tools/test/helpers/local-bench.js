// A small local bench.yaml: one nginx controller, steady and pod-kill, a paired `pr`
// matrix over the scenarios named (plus `more` YAML before the matrices).
export const localBench = (scenarios, { more = '' } = {}) => `apiVersion: tailgate/v1
kind: Bench
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
scenarios:
  steady: { script: steady, rate: 300, duration: 5s }
  pod-kill: { script: steady, rate: 300, duration: 5s }
${more}matrices:
  pr: { target: local, controllers: [nginx-reload], scenarios: [${scenarios}], repetitions: 2, compare: paired }
`;
