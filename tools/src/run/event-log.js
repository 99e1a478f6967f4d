// events.jsonl: every fault action and endpoint update, timestamped on the same
// system clock k6 uses, appended as it happens so a crash keeps what was done.
import { appendFileSync, writeFileSync } from 'node:fs';

export class EventLog {
  constructor(file) {
    this.file = file;
    writeFileSync(file, ''); // exists even when a scenario has no faults
  }

  emit(type, fields = {}) {
    // An error message can quote a whole kubectl output; ingest reads short fields only.
    const short = Object.entries(fields).map(([k, v]) => [
      k,
      typeof v === 'string' && v.length > 500 ? `${v.slice(0, 500)}…` : v,
    ]);
    const e = { ts: Date.now(), type, ...Object.fromEntries(short) };
    appendFileSync(this.file, `${JSON.stringify(e)}\n`);
    return e;
  }
}
