#pragma once
// SQLSTATE codes used by tandem (PostgreSQL Appendix A). Add codes here as
// they are needed; spell them as PostgreSQL's condition names.

namespace tandem::sqlstate {

inline constexpr const char* kSuccessfulCompletion = "00000";
inline constexpr const char* kWarning = "01000";
inline constexpr const char* kConnectionException = "08000";
inline constexpr const char* kProtocolViolation = "08P01";
inline constexpr const char* kFeatureNotSupported = "0A000";
inline constexpr const char* kCardinalityViolation = "21000";
inline constexpr const char* kDataException = "22000";
inline constexpr const char* kStringDataRightTruncation = "22001";
inline constexpr const char* kNumericValueOutOfRange = "22003";
inline constexpr const char* kNullValueNotAllowed = "22004";
inline constexpr const char* kInvalidDatetimeFormat = "22007";
inline constexpr const char* kDatetimeFieldOverflow = "22008";
inline constexpr const char* kInvalidTimeZoneDisplacement = "22009";
inline constexpr const char* kDivisionByZero = "22012";
inline constexpr const char* kIntervalFieldOverflow = "22015";
inline constexpr const char* kInvalidParameterValue = "22023";
inline constexpr const char* kSubstringError = "22011";
inline constexpr const char* kInvalidArgumentForLogarithm = "2201E";
inline constexpr const char* kInvalidArgumentForPowerFunction = "2201F";
inline constexpr const char* kInvalidEscapeCharacter = "22019";
inline constexpr const char* kInvalidUseOfEscapeCharacter = "2200C";
inline constexpr const char* kUntranslatableCharacter = "22P05";
inline constexpr const char* kFloatingPointException = "22P01";
inline constexpr const char* kStringDataLengthMismatch = "22026";
inline constexpr const char* kInvalidTextRepresentation = "22P02";
inline constexpr const char* kInvalidBinaryRepresentation = "22P03";
inline constexpr const char* kCharacterNotInRepertoire = "22021";
inline constexpr const char* kInvalidEscapeSequence = "22025";
inline constexpr const char* kInvalidRegularExpression = "2201B";
inline constexpr const char* kArraySubscriptError = "2202E";
inline constexpr const char* kIntegrityConstraintViolation = "23000";
inline constexpr const char* kNotNullViolation = "23502";
inline constexpr const char* kUniqueViolation = "23505";
inline constexpr const char* kInvalidCursorState = "24000";
inline constexpr const char* kInvalidTransactionState = "25000";
inline constexpr const char* kActiveSqlTransaction = "25001";
inline constexpr const char* kNoActiveSqlTransaction = "25P01";
inline constexpr const char* kInFailedSqlTransaction = "25P02";
inline constexpr const char* kReadOnlySqlTransaction = "25006";
inline constexpr const char* kInvalidAuthorizationSpecification = "28000";
inline constexpr const char* kInvalidPassword = "28P01";
inline constexpr const char* kDependentObjectsStillExist = "2BP01";
inline constexpr const char* kInvalidCursorName = "34000";
inline constexpr const char* kInvalidCatalogName = "3D000";
inline constexpr const char* kInvalidSchemaName = "3F000";
inline constexpr const char* kSerializationFailure = "40001";
inline constexpr const char* kSyntaxError = "42601";
inline constexpr const char* kInsufficientPrivilege = "42501";
inline constexpr const char* kUndefinedColumn = "42703";
inline constexpr const char* kUndefinedFunction = "42883";
inline constexpr const char* kUndefinedTable = "42P01";
inline constexpr const char* kUndefinedObject = "42704";
inline constexpr const char* kUndefinedParameter = "42P02";
inline constexpr const char* kDuplicateObject = "42710";
inline constexpr const char* kDuplicateTable = "42P07";
inline constexpr const char* kDuplicateSchema = "42P06";
inline constexpr const char* kDuplicateColumn = "42701";
inline constexpr const char* kDuplicatePreparedStatement = "42P05";
inline constexpr const char* kDuplicateCursor = "42P03";
inline constexpr const char* kAmbiguousColumn = "42702";
inline constexpr const char* kAmbiguousFunction = "42725";
inline constexpr const char* kDatatypeMismatch = "42804";
inline constexpr const char* kCannotCoerce = "42846";
inline constexpr const char* kGroupingError = "42803";
inline constexpr const char* kWrongObjectType = "42809";
inline constexpr const char* kInvalidColumnReference = "42P10";
inline constexpr const char* kIndeterminateDatatype = "42P18";
inline constexpr const char* kUndefinedPreparedStatement = "26000";
inline constexpr const char* kProgramLimitExceeded = "54000";
inline constexpr const char* kTooManyConnections = "53300";
inline constexpr const char* kOutOfMemory = "53200";
inline constexpr const char* kQueryCanceled = "57014";
inline constexpr const char* kAdminShutdown = "57P01";
inline constexpr const char* kCantChangeRuntimeParam = "55P02";
inline constexpr const char* kObjectNotInPrerequisiteState = "55000";
inline constexpr const char* kInternalError = "XX000";
inline constexpr const char* kDataCorrupted = "XX001";
inline constexpr const char* kIoError = "58030";
inline constexpr const char* kSnapshotTooOld = "72000";
inline constexpr const char* kConfigFileError = "F0000";

}  // namespace tandem::sqlstate
