package io.specwatch.sink.clickhouse;

import java.util.HashMap;
import java.util.Map;

/**
 * ClickHouse error codes the sink acts on, by class (codes from ClickHouse's ErrorCodes.cpp; stable
 * across versions). The sink never looks at message text.
 *
 * <ul>
 *   <li>{@link Category#RETRIABLE}: the server or the path to it is unavailable or overloaded; the
 *       same batch will succeed later. The sink pauses consumption and retries with backoff.
 *   <li>{@link Category#BAD_DATA}: the server rejected the data; some row of the batch is poison.
 *       The sink splits the batch to find it and dead-letters that row alone.
 *   <li>{@link Category#FATAL}: the sink or the schema is misconfigured (unknown table or column,
 *       credentials, read-only user); no retry or split can help. The sink stops without
 *       committing.
 * </ul>
 *
 * Codes not listed count as retriable: the retry is bounded, offsets stay uncommitted, so the worst
 * case is a stop and a restart that replays into idempotent tables.
 */
public enum ClickHouseError {
  NO_SERVER(ClickHouseFailure.NO_SERVER_CODE, Category.RETRIABLE),
  UNEXPECTED_END_OF_FILE(3, Category.RETRIABLE),
  TIMEOUT_EXCEEDED(159, Category.RETRIABLE),
  TOO_MANY_SIMULTANEOUS_QUERIES(202, Category.RETRIABLE),
  NO_FREE_CONNECTION(203, Category.RETRIABLE),
  SOCKET_TIMEOUT(209, Category.RETRIABLE),
  NETWORK_ERROR(210, Category.RETRIABLE),
  MEMORY_LIMIT_EXCEEDED(241, Category.RETRIABLE),
  TABLE_IS_READ_ONLY(242, Category.RETRIABLE),
  TOO_MANY_PARTS(252, Category.RETRIABLE),
  TOO_FEW_LIVE_REPLICAS(285, Category.RETRIABLE),
  UNKNOWN_STATUS_OF_INSERT(319, Category.RETRIABLE),
  ALL_CONNECTION_TRIES_FAILED(279, Category.RETRIABLE),
  KEEPER_EXCEPTION(999, Category.RETRIABLE),

  CANNOT_PARSE_TEXT(6, Category.BAD_DATA),
  CANNOT_PARSE_QUOTED_STRING(26, Category.BAD_DATA),
  CANNOT_PARSE_INPUT_ASSERTION_FAILED(27, Category.BAD_DATA),
  ATTEMPT_TO_READ_AFTER_EOF(32, Category.BAD_DATA),
  CANNOT_READ_ALL_DATA(33, Category.BAD_DATA),
  BAD_ARGUMENTS(36, Category.BAD_DATA),
  CANNOT_PARSE_DATE(38, Category.BAD_DATA),
  CANNOT_PARSE_DATETIME(41, Category.BAD_DATA),
  TYPE_MISMATCH(53, Category.BAD_DATA),
  ARGUMENT_OUT_OF_BOUND(69, Category.BAD_DATA),
  CANNOT_CONVERT_TYPE(70, Category.BAD_DATA),
  CANNOT_PARSE_NUMBER(72, Category.BAD_DATA),
  INCORRECT_DATA(117, Category.BAD_DATA),
  TOO_LARGE_ARRAY_SIZE(128, Category.BAD_DATA),
  SIZES_OF_ARRAYS_DOESNT_MATCH(190, Category.BAD_DATA),
  FUNCTION_THROW_IF_VALUE_IS_NON_ZERO(395, Category.BAD_DATA),
  VIOLATED_CONSTRAINT(469, Category.BAD_DATA),

  NO_SUCH_COLUMN_IN_TABLE(16, Category.FATAL),
  ILLEGAL_COLUMN(44, Category.FATAL),
  UNKNOWN_IDENTIFIER(47, Category.FATAL),
  UNKNOWN_TABLE(60, Category.FATAL),
  SYNTAX_ERROR(62, Category.FATAL),
  UNKNOWN_DATABASE(81, Category.FATAL),
  UNKNOWN_SETTING(115, Category.FATAL),
  READONLY(164, Category.FATAL),
  UNKNOWN_USER(192, Category.FATAL),
  WRONG_PASSWORD(193, Category.FATAL),
  REQUIRED_PASSWORD(194, Category.FATAL),
  ACCESS_DENIED(497, Category.FATAL),
  AUTHENTICATION_FAILED(516, Category.FATAL),
  UNKNOWN(Integer.MIN_VALUE, Category.RETRIABLE);

  /** What the sink does about an error. */
  public enum Category {
    RETRIABLE,
    BAD_DATA,
    FATAL
  }

  private static final Map<Integer, ClickHouseError> BY_CODE = new HashMap<>();

  static {
    for (ClickHouseError e : values()) {
      if (e != UNKNOWN) {
        BY_CODE.put(e.code, e);
      }
    }
  }

  private final int code;
  private final Category category;

  ClickHouseError(int code, Category category) {
    this.code = code;
    this.category = category;
  }

  public int code() {
    return code;
  }

  public Category category() {
    return category;
  }

  public boolean isRetriable() {
    return category == Category.RETRIABLE;
  }

  /** The error for a code; {@link #UNKNOWN} (retriable) for codes not listed. */
  public static ClickHouseError of(int code) {
    return BY_CODE.getOrDefault(code, UNKNOWN);
  }
}
