package io.specwatch.sink.dashboard;

/** A request parameter the dashboard API cannot serve; answered with HTTP 400 and the message. */
public final class BadRequest extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public BadRequest(String message) {
    super(message);
  }
}
