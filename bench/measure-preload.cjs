// Loaded with `node --require` when GNU time is missing: at exit, writes this process's own CPU time
// and peak RSS to the file named by LEADCTL_BENCH_RUSAGE (see measure.mjs).
const file = process.env.LEADCTL_BENCH_RUSAGE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const line = `${usage.userCPUTime / 1e6} ${usage.systemCPUTime / 1e6} ${usage.maxRSS}\n`;
    require('node:fs').writeFileSync(file, line);
  });
}
