package io.specwatch.streams;

/**
 * A decoded record that breaks an invariant of the topology (e.g. its key is not its deploymentId).
 * Thrown inside a processor so the processing exception handler dead-letters it.
 */
public final class InvalidEventException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidEventException(String message) {
    super(message);
  }
}
