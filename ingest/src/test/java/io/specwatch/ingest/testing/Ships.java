package io.specwatch.ingest.testing;

import io.specwatch.ingest.ship.LogFileShipper;
import io.specwatch.ingest.ship.ShipResult;
import java.nio.file.Path;

/** Test helper: one file shipped by a shipper of its own, closed afterwards. */
public final class Ships {

  private Ships() {}

  /** Ships {@code file} with {@code shipper} and closes it (its producer) whatever happens. */
  public static ShipResult shipAndClose(LogFileShipper shipper, Path file) {
    try (shipper) {
      return shipper.ship(file);
    }
  }
}
