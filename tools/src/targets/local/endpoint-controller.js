// Watches the pod set and applies each change through the data plane's strategy,
// optionally late (updateLag: the AGIC/ARM API case). Changes that arrive while an
// update is in flight coalesce into one follow-up, as real controllers batch them.
import { sleep } from './proc.js';

export class EndpointController {
  constructor({ dataPlane, events, lagMs = 0 }) {
    Object.assign(this, { dataPlane, events, lagMs });
    this.pending = null;
    this.running = null;
    this.reloads = 0;
    this.updates = 0;
    this.failures = [];
  }

  onChange(endpoints) {
    this.events.emit('endpoints-changed', { endpoints: endpoints.length });
    this.pending = endpoints;
    this.running ??= this.drain();
  }

  async drain() {
    try {
      if (this.lagMs > 0) await sleep(this.lagMs);
      while (this.pending) {
        const eps = this.pending;
        this.pending = null;
        const t = Date.now();
        this.events.emit('update-requested', { endpoints: eps.length });
        try {
          const { reload } = await this.dataPlane.apply(eps);
          this.updates++;
          if (reload) this.reloads++;
          this.events.emit('update-applied', { endpoints: eps.length, reload, ms: Date.now() - t });
        } catch (err) {
          this.failures.push(err.message);
          this.events.emit('update-failed', { error: err.message });
        }
      }
    } finally {
      this.running = null;
    }
  }

  async settle() {
    while (this.running) await this.running;
  }
}
