// The pg_catalog relations of PostgreSQL features tandem does not have, so
// they hold no rows: row-level security policies (pg_policy), extended
// statistics (pg_statistic_ext), logical-replication publications
// (pg_publication, pg_publication_rel, pg_publication_namespace) and
// extensions (pg_extension, which psql's \dx lists). psql's \d reads the
// others for every table; their columns keep PostgreSQL's names and
// types (polroles oid[]; stxkind "char"[] and prattrs/stxkeys int2vector,
// here text[] and smallint[] as tandem has neither "char" nor int2vector).
// Registered after every other builtin relation, so adding them moved no
// existing id.
#include "catalog/builtin_relations.hpp"

namespace tandem::catalog::builtin_detail {
namespace {

using T = TypeId;

std::vector<Row> none(const CatalogSnapshot&, const BuiltinContext&) { return {}; }

}  // namespace

void add_pg_feature_relations(std::vector<BuiltinRelation>& out) {
  const char* pg = kPgCatalogSchema;
  out.push_back({pg, "pg_policy",
                 {{"oid", T::kOid, false}, {"polname", T::kText, false}, {"polrelid", T::kOid, false},
                  {"polcmd", T::kText, false}, {"polpermissive", T::kBool, false},
                  {"polroles", T::kOidArray, false}, {"polqual", T::kText, true},
                  {"polwithcheck", T::kText, true}}, none});
  out.push_back({pg, "pg_statistic_ext",
                 {{"oid", T::kOid, false}, {"stxrelid", T::kOid, false}, {"stxname", T::kText, false},
                  {"stxnamespace", T::kOid, false}, {"stxowner", T::kOid, false},
                  {"stxstattarget", T::kInt4, false}, {"stxkeys", T::kInt2Array, false},
                  {"stxkind", T::kTextArray, false}, {"stxexprs", T::kText, true}}, none});
  out.push_back({pg, "pg_publication",
                 {{"oid", T::kOid, false}, {"pubname", T::kText, false}, {"pubowner", T::kOid, false},
                  {"puballtables", T::kBool, false}, {"pubinsert", T::kBool, false},
                  {"pubupdate", T::kBool, false}, {"pubdelete", T::kBool, false},
                  {"pubtruncate", T::kBool, false}, {"pubviaroot", T::kBool, false}}, none});
  out.push_back({pg, "pg_publication_rel",
                 {{"oid", T::kOid, false}, {"prpubid", T::kOid, false}, {"prrelid", T::kOid, false},
                  {"prqual", T::kText, true}, {"prattrs", T::kInt2Array, true}}, none});
  out.push_back({pg, "pg_publication_namespace",
                 {{"oid", T::kOid, false}, {"pnpubid", T::kOid, false}, {"pnnspid", T::kOid, false}}, none});
  out.push_back({pg, "pg_extension",
                 {{"oid", T::kOid, false}, {"extname", T::kText, false}, {"extowner", T::kOid, false},
                  {"extnamespace", T::kOid, false}, {"extrelocatable", T::kBool, false},
                  {"extversion", T::kText, false}, {"extconfig", T::kOidArray, true},
                  {"extcondition", T::kTextArray, true}}, none});
}

}  // namespace tandem::catalog::builtin_detail
