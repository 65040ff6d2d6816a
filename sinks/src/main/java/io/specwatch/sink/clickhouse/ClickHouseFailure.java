package io.specwatch.sink.clickhouse;

import com.clickhouse.client.api.ServerException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failed ClickHouse call, with the server error code when the server answered. Whether it is
 * worth retrying is decided by code (see {@link #isRetriable()}), never by message text.
 */
public final class ClickHouseFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Code used when no server answered (connection refused, timeout, I/O). */
  public static final int NO_SERVER_CODE = -1;

  private static final Pattern BODY_CODE = Pattern.compile("Code: (\\d+)");

  private final int code;

  public ClickHouseFailure(String message, int code, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The classified error (see {@link ClickHouseError} for what each class means). */
  public ClickHouseError error() {
    return ClickHouseError.of(code);
  }

  /** Retriable, bad data or fatal, by code. */
  public ClickHouseError.Category category() {
    return error().category();
  }

  /**
   * Transport failures and server overload/timeouts are retriable; data, syntax and schema errors
   * are not (a retry would fail the same way). Unknown codes are treated as retriable: the sink's
   * retry is bounded and the offsets stay uncommitted, so the worst case is a restart.
   */
  public boolean isRetriable() {
    return error().isRetriable();
  }

  /**
   * The server's error code. client-v2 reads it from a response header that ClickHouse 18.16 does
   * not send (it reports 0 there); the old servers put it in the body as {@code Code: N}.
   */
  static int serverCode(ServerException e) {
    if (e.getCode() > 0) {
      return e.getCode();
    }
    Matcher m = BODY_CODE.matcher(String.valueOf(e.getMessage()));
    return m.find() ? Integer.parseInt(m.group(1)) : e.getCode();
  }

  static ClickHouseFailure wrap(String operation, String what, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    if (cause instanceof ClickHouseFailure failure) {
      return failure;
    }
    int code = cause instanceof ServerException server ? serverCode(server) : NO_SERVER_CODE;
    String head = what.length() > 200 ? what.substring(0, 200) + "..." : what;
    return new ClickHouseFailure(
        "ClickHouse "
            + operation
            + " failed (code "
            + code
            + "): "
            + cause.getMessage()
            + " ["
            + head
            + "]",
        code,
        cause);
  }
}
