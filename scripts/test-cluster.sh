#!/usr/bin/env bash
# `make test-cluster`: a real single-node Slurm cluster on this machine runs samples/ as an array
# job of 4 shards (the batch script in deploy/slurm is the one users submit); the merged output
# must equal a single run byte for byte. Also validates the Kubernetes manifest against the
# batch/v1 Job schema. Needs root (it installs and starts daemons); stops them at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SNAPSORT="$ROOT/.build/release/snapsort"
[ -x "$SNAPSORT" ] || { echo "build first: make release" >&2; exit 2; }

need=()
for tool in slurmctld slurmd sbatch munged; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
if [ ${#need[@]} -gt 0 ]; then
  echo "test-cluster: installing slurmctld slurmd slurm-client munge" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq slurmctld slurmd slurm-client munge >/dev/null
fi

WORK=$(mktemp -d /tmp/snapsort-cluster.XXXXXX)
chmod 755 "$WORK"
HOST=$(hostname -s)
CPUS=$(nproc)
cleanup() {
  for pidfile in "$WORK"/slurmd.pid "$WORK"/slurmctld.pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  [ -n "${MUNGE_STARTED:-}" ] && [ -f /run/munge/munged.pid ] && kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
  sleep 1
}
trap cleanup EXIT

# munge: a key and a running daemon (as the munge user), unless one already runs.
if [ ! -f /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/lib/munge /var/log/munge && chown munge:munge /run/munge /var/lib/munge /var/log/munge
if ! pgrep -x munged >/dev/null; then
  runuser -u munge -- munged
  MUNGE_STARTED=1
fi

mkdir -p "$WORK/state" "$WORK/spool"
cat > "$WORK/slurm.conf" <<CONF
ClusterName=snapsort-test
SlurmctldHost=$HOST
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ReturnToService=2
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$WORK/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 1 30); do
  sinfo -h -o '%T' 2>/dev/null | grep -qE 'idle|mix' && break
  sleep 1
done
sinfo

echo "test-cluster: single run" >&2
status=0
"$SNAPSORT" run samples --out "$WORK/single" --quiet || status=$?
[ "$status" -le 1 ]

echo "test-cluster: sbatch --array=0-3 --wait" >&2
(cd "$WORK" && sbatch --array=0-3 --wait --cpus-per-task=1 \
  --export=ALL,SNAPSORT="$SNAPSORT",INPUT="$ROOT/samples",OUTPUT="$WORK/out" \
  "$ROOT/deploy/slurm/snapsort-array.sbatch")
ls "$WORK/out"
status=0
"$SNAPSORT" merge "$WORK"/out/shard-* --out "$WORK/merged" || status=$?
[ "$status" -le 1 ]
for shard in "$WORK"/out/shard-*; do
  printf '%s: %s records\n' "$(basename "$shard")" "$(wc -l < "$shard/records.jsonl")"
done
records=$(wc -l < "$WORK/single/records.jsonl")
[ "$records" -gt 0 ] || { echo "test-cluster: samples/ gave no records to compare" >&2; exit 1; }
if cmp "$WORK/single/records.jsonl" "$WORK/merged/records.jsonl"; then
  echo "test-cluster: merged 4 Slurm shards == single run ($(wc -l < "$WORK/merged/records.jsonl") records)"
else
  diff <(head -c 2000 "$WORK/single/records.jsonl") <(head -c 2000 "$WORK/merged/records.jsonl") || true
  echo "test-cluster: FAILED: merged shards differ from the single run" >&2
  exit 1
fi

echo "test-cluster: validating the Kubernetes manifest" >&2
python3 scripts/validate-k8s-job.py deploy/kubernetes/snapsort-indexed-job.yaml
