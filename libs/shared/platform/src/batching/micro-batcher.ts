/**
 * Gathers calls made in the same turn of the event loop (or until `maxSize`) and runs them as one batch.
 * Every caller still gets its own answer, and only once the batch it joined has finished, so a caller
 * that awaits its write knows the write is done. Used where many concurrent jobs each need one small
 * statement: one round trip for the batch instead of one per job.
 */
export class MicroBatcher<Input, Output> {
  private pending: Array<{ input: Input; resolve: (output: Output) => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    /** Runs one batch; the answer is aligned with `inputs`. */
    private readonly runBatch: (inputs: Input[]) => Promise<Output[]>,
    private readonly maxSize = 100,
  ) {}

  submit(input: Input): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.pending.length >= this.maxSize) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (!batch.length) return;
    this.pending = [];
    this.runBatch(batch.map((call) => call.input)).then(
      (outputs) => batch.forEach((call, index) => call.resolve(outputs[index] as Output)),
      (error: unknown) => batch.forEach((call) => call.reject(error)),
    );
  }
}
