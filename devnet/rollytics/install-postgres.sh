#!/usr/bin/env bash
# Makes sure PostgreSQL server binaries (initdb, pg_ctl, postgres) and psql are
# present; installs Debian's `postgresql` package when they are not (CI on a
# fresh machine). Prints the server bin directory on stdout.
set -euo pipefail
say() { echo "[rollytics-pg] $*" >&2; }
find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1; }
bin="$(find_bin)"
if [[ -z "$bin" || ! -x "$bin/initdb" ]] || ! command -v psql >/dev/null 2>&1; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "MISSING: PostgreSQL server binaries (initdb, pg_ctl) and no apt-get to install them; install PostgreSQL >= 15"
    exit 7
  fi
  say "installing Debian package postgresql (apt-get)"
  sudo_=""; [[ "$(id -u)" != 0 ]] && sudo_="sudo"
  if ! { $sudo_ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq postgresql >/dev/null; }; then
    say "FAILED: apt-get install postgresql"
    exit 7
  fi
  bin="$(find_bin)"
fi
[[ -x "$bin/initdb" ]] || { say "MISSING: initdb after installing postgresql"; exit 7; }
echo "$bin"
