#!/usr/bin/env python3
"""results.py - check what a lava-run job recorded: the job passed, and each LAVA test case of sysab matches the database the job kept, imported with sysab import db."""
import base64
import os
import subprocess
import sys

import yaml


def fail(msg):
    print("check-lava: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def log_entries(path):
    """lava-run's log: one YAML flow mapping per line (dt, lvl, msg)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                yield yaml.safe_load(line)
            except yaml.YAMLError:
                continue


def main():
    outdir, work, sysab = sys.argv[1], sys.argv[2], os.environ["SYSAB"]
    with open(os.path.join(outdir, "result.yaml"), encoding="utf-8") as f:
        job = yaml.safe_load(f)
    if job.get("result") != "pass":
        fail("the LAVA job did not pass: %s" % job)
    cases, target, in_db, db_lines = {}, [], False, []
    for e in log_entries(os.path.join(work, "lava-run.log")):
        msg = e.get("msg")
        if e.get("lvl") == "results" and isinstance(msg, dict) and msg.get("definition") == "0_sysab":
            cases[msg["case"]] = msg
        elif e.get("lvl") == "target" and isinstance(msg, str):
            target.append(msg)
            if msg.startswith("SYSAB-DB-BEGIN"):
                in_db, size = True, int(msg.split()[1])
            elif msg == "SYSAB-DB-END":
                in_db = False
            elif in_db:
                db_lines.append(msg)
    if cases.get("sysab-run", {}).get("result") != "pass":
        fail("LAVA recorded no passing sysab-run case: %s" % sorted(cases))
    slots = {k: v for k, v in cases.items() if k.count(".") >= 2}
    if len(slots) < 3:
        fail("LAVA recorded %d workload cases, wanted 3: %s" % (len(slots), sorted(cases)))
    if not db_lines:
        fail("the job log holds no database (SYSAB-DB-BEGIN ... SYSAB-DB-END)")
    db = base64.b64decode("".join(db_lines))
    if len(db) != size:
        fail("the database from the log has %d bytes, the device said %d" % (len(db), size))
    guest_db, host_db = os.path.join(work, "dut.db"), os.path.join(work, "host.db")
    with open(guest_db, "wb") as f:
        f.write(db)
    # merge it into a host database, as a lab would, and ask the host sysab for the cases
    subprocess.run([sysab, "import", "db", "--db", host_db, guest_db], check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run([sysab, "export", "--db", host_db, "--format", "lava"], check=True,
                         capture_output=True, text=True).stdout
    want = {}
    for line in out.splitlines():
        w = line.split()
        opts = dict(zip(w[2::2], w[3::2]))
        want[w[1]] = opts
    if set(want) != set(slots):
        fail("cases differ: LAVA %s, database %s" % (sorted(slots), sorted(want)))
    for name, w in sorted(want.items()):
        got = slots[name]
        if got["result"] != w["--result"]:
            fail("%s: LAVA says %s, the database %s" % (name, got["result"], w["--result"]))
        if "--measurement" in w:
            g, d = float(got.get("measurement", "nan")), float(w["--measurement"])
            if not abs(g - d) <= 1e-9 * abs(d) or got.get("units") != w["--units"]:
                fail("%s: LAVA recorded %s %s, the database holds %s %s" % (
                    name, got.get("measurement"), got.get("units"), w["--measurement"], w["--units"]))
        print("check-lava: %-24s %s %s %s (LAVA) = database" % (
            name, got["result"], got.get("measurement", ""), got.get("units", "")))
    # the imported run still says where it came from
    label = subprocess.run(["sqlite3", host_db, "SELECT value FROM label WHERE key = 'lab'"],
                           check=True, capture_output=True, text=True).stdout.strip()
    if label != "check-lava":
        fail("the imported run lost its labels: lab=%r" % label)
    host = subprocess.run(["sqlite3", host_db, "SELECT DISTINCT hostname FROM machine"],
                          check=True, capture_output=True, text=True).stdout.strip()
    if host != "sysab-dut":
        fail("the imported run's machine is %r, not the device" % host)
    print("check-lava: ok, %d LAVA test cases match the imported database" % len(want))


if __name__ == "__main__":
    main()
