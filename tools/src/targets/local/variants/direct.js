// No proxy: k6 talks to the first pod. The reference run for "latency added by
// the proxy" (the Kong comparison's method).
export const name = 'direct';

export async function start(ctx) {
  const first = ctx.endpoints[0];
  return { child: null, url: `http://${first.address}:${first.port}`, apply: async () => ({ reload: false }) };
}
