// CPU time of this process's descendants (LibreOffice, its bridge, sandbox children). Wall-clock
// throughput on a shared 2-core machine moves with whatever else runs; the CPU a conversion costs
// barely does, so a change in the code shows in this figure first.
import { readdirSync, readFileSync } from 'node:fs';
import { readCpuMs } from '../src/platform/sandbox/sandbox-pool';

function readStatFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU of the children `pid` has already reaped (a LibreOffice replaced mid-run), in ms. */
function readReapedChildrenCpuMs(pid: number): number {
  const fields = readStatFields(pid);
  if (!fields) return 0;
  // Fields 16 and 17 of /proc/<pid>/stat (cutime, cstime), in USER_HZ ticks: 100 per second.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * User + system CPU, in ms, of every living descendant of `root` (default: this process) and of
 * the children it has reaped.
 */
export function readDescendantsCpuMs(root = process.pid): number {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = readStatFields(Number(name));
    if (fields) parents.set(Number(name), Number(fields[1]));
  }
  let total = readReapedChildrenCpuMs(root);
  for (const pid of parents.keys()) {
    let ancestor = parents.get(pid);
    while (ancestor !== undefined && ancestor !== root && ancestor > 1) {
      ancestor = parents.get(ancestor);
    }
    if (ancestor === root) total += readCpuMs(pid) ?? 0;
  }
  return total;
}

/** User + system CPU, in ms, of `pid` itself and every descendant of it. */
export function readTreeCpuMs(pid: number): number {
  return (readCpuMs(pid) ?? 0) + readDescendantsCpuMs(pid);
}

/**
 * User + system CPU, in ms, of every process whose command name is `command`, with the children
 * each has reaped: PostgreSQL runs a process per connection, and the postmaster reaps the ones
 * that close.
 */
export function readCommandCpuMs(command: string): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let comm: string;
    try {
      comm = readFileSync(`/proc/${name}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm !== command) continue;
    total += (readCpuMs(Number(name)) ?? 0) + readReapedChildrenCpuMs(Number(name));
  }
  return total;
}
