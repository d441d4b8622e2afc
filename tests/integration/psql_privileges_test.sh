# psql 15's \du and \dp against tandemd: roles with their attributes and
# memberships (pg_roles, pg_auth_members), and relations' access privileges
# (pg_class.relacl) in PostgreSQL's layout: the owner's entry first, then
# the grants in order, PUBLIC as an empty name. Differences from
# PostgreSQL 15 (checked against one): Materialize's privilege letters
# (arwd, no D/x/t), and a view's ACL shows its owner's entry from creation.
# Then a GRANT made by the owner survives a restart of tandemd.
source "$(dirname "$0")/lib.sh"

sql "CREATE TABLE t (a int)"
sql "CREATE VIEW v AS SELECT a FROM t"
sql "GRANT SELECT ON t TO PUBLIC"
PGUSER=mz_system sql "CREATE ROLE r1"
PGUSER=mz_system sql "GRANT r1 TO materialize"
PGUSER=mz_system sql "CREATE ROLE alice LOGIN"
sql "GRANT INSERT, UPDATE ON t TO alice"

check '\du' "                              List of roles
  Role name  |                  Attributes                   | Member of 
-------------+-----------------------------------------------+-----------
 alice       |                                               | {}
 materialize |                                               | {r1}
 mz_system   | Superuser, Create role, Create DB, Bypass RLS | {}
 r1          | Cannot login                                  | {}"

DP="                                  Access privileges
 Schema | Name | Type  |      Access privileges       | Column privileges | Policies 
--------+------+-------+------------------------------+-------------------+----------
 public | t    | table | materialize=arwd/materialize+|                   | 
        |      |       | =r/materialize              +|                   | 
        |      |       | alice=aw/materialize         |                   | 
 public | v    | view  | materialize=r/materialize    |                   | 
(2 rows)"
check '\dp' "$DP"

# alice sees the same privileges, and holds only hers.
PGUSER=alice check '\dp' "$DP"
got=$(PGUSER=alice psql -X -c "DELETE FROM t" 2>&1) && fail "alice deleted from t"
[[ "$got" == *'permission denied for TABLE "materialize.public.t"'* ]] || fail "alice's DELETE printed: $got"

# After a restart the roles and grants are as they were.
kill -TERM $TANDEMD_PID
wait $TANDEMD_PID || true
"$TANDEMD" --listen 127.0.0.1:$PORT --data-dir "$WORK/data" >>"$WORK/log" 2>&1 &
TANDEMD_PID=$!
for _ in $(seq 1 300); do
  if pg_isready -q -h 127.0.0.1 -p $PORT; then break; fi
  sleep 0.05
done
check '\dp' "$DP"
PGUSER=alice sql "INSERT INTO t VALUES (1)"
echo "psql_privileges_test: ok"
