// events.jsonl: every fault action and endpoint update, timestamped on the same
// system clock k6 uses, appended as it happens so a crash keeps what was done.
import { appendFileSync, writeFileSync } from 'node:fs';

export class EventLog {
  constructor(file) {
    this.file = file;
    writeFileSync(file, ''); // exists even when a scenario has no faults
  }

  emit(type, fields = {}) {
    const e = { ts: Date.now(), type, ...fields };
    appendFileSync(this.file, `${JSON.stringify(e)}\n`);
    return e;
  }
}
