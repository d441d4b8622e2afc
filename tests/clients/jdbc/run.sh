#!/usr/bin/env bash
# Compiles ClientTest.java against Debian's pgJDBC and JUnit 4 and runs it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cp="/usr/share/java/postgresql.jar:/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"
out=$(mktemp -d /tmp/tandem-jdbc-XXXXXX)
trap 'rm -rf "$out"' EXIT
javac -d "$out" -cp "$cp" "$here/ClientTest.java"
java -cp "$out:$cp" ClientTest
