import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Load-independent cost of long work on the embedded cluster (the seed CLI, bench/src/ingest-day.ts).

/** CPU seconds used so far by the embedded PostgreSQL (postmaster, its live and finished children). */
export function postgresCpuSeconds(pgDir: string): number | null {
  try {
    const pidFile = join(pgDir, 'postmaster.pid');
    if (!existsSync(pidFile) || !existsSync('/proc/self/stat')) return null;
    const master = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    const tick = 100; // USER_HZ on Linux
    const stat = (pid: number) =>
      readFileSync(`/proc/${pid}/stat`, 'utf8')
        .slice(readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2)
        .split(' ');
    // fields after the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14)
    const cpu = (f: string[], children: boolean) =>
      Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
    let ticks = cpu(stat(master), true);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const f = stat(Number(entry));
        if (Number(f[1]) === master) ticks += cpu(f, true);
      } catch {
        // the process ended meanwhile
      }
    }
    return ticks / tick;
  } catch {
    return null;
  }
}
