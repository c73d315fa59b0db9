// What every benchmark prints beside its figures: the machine, its load, and a fixed CPU calibration loop, because
// this VM's vCPU speed drifts by up to 2× within an hour and figures of different runs compare only beside it.
import os from 'node:os';

/** A fixed single-threaded JS loop, timed (ms): the speed this VM's vCPU gives right now. */
export function cpuCalibrationMs(): number {
  const t = performance.now();
  let x = 0;
  for (let i = 0; i < 3e8; i++) x += i % 7;
  if (x < 0) throw new Error('unreachable');
  return Math.round(performance.now() - t);
}

export const machine = () => ({
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model,
  memGb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  load: os.loadavg().map((l) => Math.round(l * 100) / 100),
  cpuCalibrationMs: cpuCalibrationMs(),
});
