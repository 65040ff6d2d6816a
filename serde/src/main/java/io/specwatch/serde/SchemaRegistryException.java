package io.specwatch.serde;

/**
 * A failed registry call: the HTTP status and the registry's {@code error_code} and {@code message}
 * (e.g. 40401 subject not found, 40403 schema not found, 409 incompatible), or an IO failure after
 * retries (status 0).
 */
public class SchemaRegistryException extends RuntimeException {
  public static final int SUBJECT_NOT_FOUND = 40401;
  public static final int VERSION_NOT_FOUND = 40402;
  public static final int SCHEMA_NOT_FOUND = 40403;
  public static final int INCOMPATIBLE = 409;
  public static final int INVALID_SCHEMA = 42201;

  private final int httpStatus;
  private final int errorCode;

  public SchemaRegistryException(int httpStatus, int errorCode, String message) {
    this(httpStatus, errorCode, message, null);
  }

  public SchemaRegistryException(int httpStatus, int errorCode, String message, Throwable cause) {
    super(message + " (http " + httpStatus + ", error_code " + errorCode + ")", cause);
    this.httpStatus = httpStatus;
    this.errorCode = errorCode;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public int errorCode() {
    return errorCode;
  }

  /** IO failures and 5xx answers may succeed later; 4xx answers will not. */
  public boolean isRetriable() {
    return httpStatus == 0 || httpStatus >= 500;
  }
}
