#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real: Chromium (browser tests),
# LibreOffice (document conversion), poppler (pdftotext), fonts, and PostgreSQL's binaries
# (a throwaway cluster when TEST_DATABASE_URL is unset). Does nothing when all are present.
set -euo pipefail

packages=(chromium libreoffice-writer-nogui python3-uno poppler-utils qpdf
  fonts-liberation2 fonts-dejavu-core fonts-noto-cjk postgresql)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
  echo "Please install as root: apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# postgresql's maintainer scripts must not start a second cluster on a machine that has one.
$sudo env RUNLEVEL=1 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
