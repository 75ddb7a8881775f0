// CPU time and memory of a server's whole process tree, from /proc (Linux only). utime+stime of a
// process covers all its threads (libuv's pool, workerd's), so a snapshot before and after a round
// gives the server's CPU for that round.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond = 0;
function clockTicks() {
  if (!ticksPerSecond) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

function readStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    // Fields after "(comm) ": state ppid pgrp … utime (14th of the line) stime (15th).
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid: Number(pid), comm, ppid: Number(f[1]), pgrp: Number(f[2]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null; // exited between readdir and read
  }
}

/** The process rootPid and all its descendants: [{ pid, comm, ppid, cpuMs }]. */
export function processTree(rootPid) {
  const all = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(readStat)
    .filter(Boolean);
  const children = new Map();
  for (const p of all) {
    if (!children.has(p.ppid)) children.set(p.ppid, []);
    children.get(p.ppid).push(p);
  }
  const rootProc = all.find((p) => p.pid === rootPid);
  if (!rootProc) return [];
  const tree = [];
  const queue = [rootProc];
  while (queue.length) {
    const p = queue.shift();
    tree.push({ pid: p.pid, comm: p.comm, ppid: p.ppid, cpuMs: (p.ticks * 1000) / clockTicks() });
    queue.push(...(children.get(p.pid) ?? []));
  }
  return tree;
}

/** CPU ms used by each process of the tree between two processTree() snapshots, summed by command name. */
export function cpuDelta(before, after) {
  const was = new Map(before.map((p) => [p.pid, p.cpuMs]));
  const byComm = {};
  for (const p of after) {
    byComm[p.comm] = (byComm[p.comm] ?? 0) + p.cpuMs - (was.get(p.pid) ?? 0);
  }
  return byComm;
}

/** Resident memory (MiB) of the tree's processes, optionally only those named `comm`. */
export function treeRssMiB(rootPid, comm) {
  let kib = 0;
  for (const p of processTree(rootPid)) {
    if (comm && p.comm !== comm) continue;
    try {
      const status = readFileSync(`/proc/${p.pid}/status`, "utf8");
      kib += Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
    } catch {}
  }
  return kib / 1024;
}

/** Clock-tick resolution of the CPU figures, in ms. */
export function cpuResolutionMs() {
  return 1000 / clockTicks();
}
