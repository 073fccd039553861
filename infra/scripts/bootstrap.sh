#!/usr/bin/env bash
# Sets up a machine of ours from a fresh clone, then runs what is asked:
#   start  install, start RabbitMQ and PostgreSQL if they are down, run the local stack
#   test   the same set-up, then every test
#   ci     the same set-up, then typecheck, lint, the contract checks, every test, the libs, webhook-ingest and the
#          walking skeleton again on Node 22, a short fuzz round, and beside them a chaos round of 10,000 deliveries on
#          the local cluster (pnpm cluster up) when the cluster can start here (what .ci/run does);
#          then, when CONFORMANCE_FIXTURES names a folder of the platform's published examples,
#          the conformance suite against them (jest.conformance.config.cjs); when PLATFORM_OPENAPI_DOCUMENT names the
#          platform's OpenAPI document, the simulator checks every request and answer of the test run against it and
#          any violation fails CI
set -euo pipefail
cd "$(dirname "$0")/../.."

PNPM_VERSION=10.34.8

say() { printf '\n==> %s\n' "$*"; }

# A section of the CI log: its heading, then its seconds once it ends (every reader sees where the time goes).
timed() { # name, command...
  local name="$1" start=$SECONDS rc=0
  shift
  say "$name"
  "$@" || rc=$?
  printf '<== %s: %d s\n' "$name" $((SECONDS - start))
  return "$rc"
}

port_open() { timeout 1 bash -c "</dev/tcp/127.0.0.1/$1" 2>/dev/null; }

wait_for_port() { # port, name, seconds
  for _ in $(seq 1 "${3:-60}"); do port_open "$1" && return 0; sleep 1; done
  echo "$2 did not come up on port $1" >&2; exit 1
}

ensure_pnpm() {
  if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
    say "installing pnpm $PNPM_VERSION"
    npm install --global --silent "pnpm@$PNPM_VERSION"
  fi
}

ensure_rabbitmq() {
  if ! port_open 5672; then
    say "starting RabbitMQ"
    if rabbitmqctl -q ping >/dev/null 2>&1; then
      # The node runs with its application stopped (a broker-restart test cut short, say):
      # `rabbitmq-server -detached` would exit 0 and leave it so.
      rabbitmqctl -q start_app
    else
      rabbitmq-server -detached
    fi
    wait_for_port 5672 RabbitMQ 120
  fi
  rabbitmqctl -q await_startup >/dev/null 2>&1 || true
  # ticketing's activity partitions hang off a consistent-hash exchange; enabling the plugin does not restart the broker.
  if ! rabbitmq-plugins -q is_enabled rabbitmq_consistent_hash_exchange >/dev/null 2>&1; then
    say "enabling rabbitmq_consistent_hash_exchange"
    rabbitmq-plugins -q enable rabbitmq_consistent_hash_exchange
  fi
}

ensure_postgres() {
  if ! port_open 5432; then
    say "starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
    wait_for_port 5432 PostgreSQL
  fi
}

# Test tools from Debian's packages: chromium for the console's browser tests (playwright-core never
# downloads a browser), python3-tweepy, a real client the social platform simulator is tested with, and
# Prometheus' promtool and Alertmanager's amtool, which check the alert rules (infra/alerting).
ensure_test_packages() {
  local wanted=()
  if [ -z "${CHROMIUM_PATH:-}" ] && ! [ -x /usr/bin/chromium ]; then wanted+=(chromium); fi
  if ! /usr/bin/python3 -c 'import tweepy' >/dev/null 2>&1; then wanted+=(python3-tweepy); fi
  if ! command -v promtool >/dev/null 2>&1; then wanted+=(prometheus); fi
  if ! command -v amtool >/dev/null 2>&1; then wanted+=(prometheus-alertmanager); fi
  if [ "${#wanted[@]}" -gt 0 ]; then
    say "installing ${wanted[*]} (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${wanted[@]}" >/dev/null
  fi
}

# The cluster round needs what the local cluster runs (Debian's patroni, etcd-server and rabbitmq-server) and network
# namespaces (the chaos run cuts a ticketing from the network). Answers, when it cannot start here, why.
cluster_cannot_start() {
  local wanted=()
  command -v patroni >/dev/null 2>&1 || wanted+=(patroni)
  command -v etcd >/dev/null 2>&1 || wanted+=(etcd-server)
  [ -x /usr/sbin/rabbitmq-server ] || wanted+=(rabbitmq-server)
  if [ "${#wanted[@]}" -gt 0 ] && ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${wanted[@]}"; } >/dev/null 2>&1; then
    echo "apt could not install ${wanted[*]}"
    return 0
  fi
  if ! { ip netns add crm-ci-probe && ip netns del crm-ci-probe; } >/dev/null 2>&1; then
    echo "network namespaces cannot be made here (ip netns add)"
    return 0
  fi
  return 1
}

# `pnpm cluster up` (three RabbitMQ nodes, PostgreSQL with a Patroni standby, on their own ports), a chaos round of 10,000
# deliveries with every fault on it, the cluster's own tests, then `pnpm cluster down` whatever happened.
cluster_round() {
  local why rc=0
  if why="$(cluster_cannot_start)"; then
    echo "cluster round left out: $why"
    return 0
  fi
  { pnpm --silent cluster up && pnpm --silent chaos --cluster --deliveries 10000 && CLUSTER_TESTS=1 pnpm --silent jest -c jest.cluster.config.cjs --silent; } || rc=$?
  pnpm --silent cluster down || true
  return "$rc"
}

counts() { # label, jest --json output file
  node -e 'const r = JSON.parse(require("node:fs").readFileSync(process.argv[2], "utf8")); console.log(`${process.argv[1]}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`)' "$1" "$2" || true
}

command="${1:-start}"
ensure_pnpm
say "installing dependencies"
pnpm install --frozen-lockfile --reporter=append-only
ensure_rabbitmq
ensure_postgres

case "$command" in
  start) exec pnpm start ;;
esac
ensure_test_packages

# Tests use the local servers unless told otherwise (see libs/testing).
export AMQP_URL="${AMQP_URL:-amqp://guest:guest@127.0.0.1:5672}"
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

case "$command" in
  test) exec pnpm test ;;
  ci)
    # Every step runs and the first failure decides the exit status, so one run reports all problems.
    status=0
    printf '<== set-up (dependencies, servers, test packages): %d s\n' "$SECONDS"
    record() { [ "$status" -ne 0 ] || status=$1; }
    # Per-service broker users and database roles on the vhost `crm` (the tests of infra/provision prove their limits on a fresh one).
    timed provision pnpm provision || record $?
    # typecheck (one tsc) beside lint and the contract checks (each one process): two lanes, as the machine has two cores.
    # Each lane's output is kept and printed whole when both have ended.
    lane_a="$(mktemp)" lane_b="$(mktemp)"
    timed typecheck pnpm typecheck >"$lane_a" 2>&1 &
    typecheck_pid=$!
    (
      timed lint pnpm lint || record $?
      # Contracts and deployment descriptions no engine here runs: each check fails CI on its own.
      timed "AsyncAPI document" pnpm check:asyncapi || record $?
      timed "OpenAPI documents" pnpm lint:openapi || record $?
      timed "Dockerfiles, compose and Kubernetes manifests" bash infra/scripts/check-deploy.sh || record $?
      exit "$status"
    ) >"$lane_b" 2>&1 &
    checks_pid=$!
    wait "$typecheck_pid" || record $?
    wait "$checks_pid" || record $?
    cat "$lane_a" "$lane_b"
    rm -f "$lane_a" "$lane_b"
    results="$(mktemp)"
    if [ -n "${PLATFORM_OPENAPI_DOCUMENT:-}" ]; then
      # The test run is the conformance run: each simulator appends what departs from the document here.
      PLATFORM_CONFORMANCE_REPORT="$(mktemp)"
      export PLATFORM_CONFORMANCE_REPORT
    fi
    timed test pnpm test --json --outputFile="$results" || record $?
    if [ -n "${PLATFORM_OPENAPI_DOCUMENT:-}" ]; then
      timed "requests and answers against $PLATFORM_OPENAPI_DOCUMENT" node infra/scripts/contract-report.mjs "$PLATFORM_CONFORMANCE_REPORT" || record $?
      rm -f "$PLATFORM_CONFORMANCE_REPORT"
      unset PLATFORM_CONFORMANCE_REPORT PLATFORM_OPENAPI_DOCUMENT
    fi
    # The cluster round beside the steps that follow: most of its five minutes are the faults' own waits (a node down
    # 15 s, frozen 30 s, a replica cut 20 s). Its output is kept and printed whole when it has ended.
    cluster_log="$(mktemp)"
    timed "cluster round: pnpm cluster up, pnpm chaos --cluster --deliveries 10000, the cluster's tests, pnpm cluster down" cluster_round >"$cluster_log" 2>&1 &
    cluster_pid=$!
    # One plain closing line for whoever reads the log: counts of tests passed and failed.
    test_counts="$(counts "tests" "$results")"
    printf '%s\n' "$test_counts"
    if [ -n "${CONFORMANCE_FIXTURES:-}" ]; then
      rm -f "$results"
      timed "conformance against $CONFORMANCE_FIXTURES" pnpm jest -c jest.conformance.config.cjs --json --outputFile="$results" || record $?
      counts "conformance" "$results"
    fi
    rm -f "$results"
    # Node 22 (the images' runtime) beside the machine's Node 20: the shared libs, webhook-ingest and the walking
    # skeleton (a signed delivery to a ticket read through the CRM API, the services in one process) under it, with Node 22 from the npm registry's
    # `node` package (kept in the git-ignored .local/). The other end-to-end files add time, not another runtime path;
    # so do the test support's sweep (rabbitmqctl starts) and the messaging file's private brokers (about 80 s of the step).
    timed "tests on Node 22" bash -c 'npm install --silent --no-save --prefix .local/node22 node@22 >/dev/null && .local/node22/node_modules/.bin/node --version && .local/node22/node_modules/.bin/node node_modules/jest/bin/jest.js --maxWorkers=2 --silent libs services/webhook-ingest infra/e2e/src/walking-skeleton.test.ts --testPathIgnorePatterns libs/testing/src/leftovers.test.ts libs/messaging/src/messaging.test.ts' || record $?
    # A short, repeatable fuzz round (fixed seed, at most 1,500 requests or 30 s): any crash, 5xx or accepted forgery fails CI.
    timed fuzz pnpm fuzz --seed 1 --requests 1500 --seconds 30 || record $?
    wait "$cluster_pid" || record $?
    cat "$cluster_log"
    rm -f "$cluster_log"
    printf '\nci: %d s in all\n' "$SECONDS"
    # The test counts close the log, whatever ran after them.
    printf '%s\n' "$test_counts"
    exit "$status"
    ;;
  *) echo "usage: $0 start|test|ci" >&2; exit 2 ;;
esac
