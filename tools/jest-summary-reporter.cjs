// Prints one plain closing line, "N passed, N failed" (", N skipped" when any), after Jest's own summary,
// so whoever reads the end of a CI log sees the count without knowing Jest's format.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.stdout.write(`\n${line}\n`);
  }
}

module.exports = SummaryReporter;
