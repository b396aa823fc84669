// Prints one plain closing line, "N passed, N failed" (", N skipped" when any), after Jest's own summary,
// so whoever reads the end of a CI log sees the count without knowing Jest's format. While the run goes on,
// a test file still running after STILL_RUNNING_MS is named once a minute: a file that never ends (a hung
// worker, a process it waits on) then names itself in the log instead of leaving a silent run.
const STILL_RUNNING_MS = 5 * 60_000;

class SummaryReporter {
  constructor() {
    this.started = new Map();
    this.watch = null;
  }

  onTestFileStart(test) {
    this.started.set(test.path, Date.now());
    if (this.watch) return;
    this.watch = setInterval(() => {
      const now = Date.now();
      for (const [path, since] of this.started) {
        if (now - since < STILL_RUNNING_MS) continue;
        const minutes = ((now - since) / 60_000).toFixed(0);
        process.stderr.write(`still running after ${minutes} min: ${path.replace(`${process.cwd()}/`, '')}\n`);
      }
    }, 60_000);
    this.watch.unref();
  }

  onTestFileResult(test) {
    this.started.delete(test.path);
  }

  onRunComplete(_contexts, results) {
    if (this.watch) clearInterval(this.watch);
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.stdout.write(`\n${line}\n`);
  }
}

module.exports = SummaryReporter;
