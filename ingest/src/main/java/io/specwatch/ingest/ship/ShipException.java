package io.specwatch.ingest.ship;

/** The shipment could not be delivered (broker, registry or file failure). Fatal. */
public final class ShipException extends RuntimeException {

  public ShipException(String message, Throwable cause) {
    super(message, cause);
  }
}
