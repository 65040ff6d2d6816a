package io.specwatch.sink.rows;

/** A value the table cannot hold (e.g. a time outside DateTime's 1970-2105 range): a poison row. */
public final class RowMappingException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public RowMappingException(String message) {
    super(message);
  }
}
