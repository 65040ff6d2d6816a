package io.specwatch.sink.rows;

import io.specwatch.schemas.Alert;
import java.time.Instant;
import java.util.List;

/** {@link Alert} to one row of {@code alerts} (V004). */
public final class AlertRows implements RowMapping<Alert> {

  public static final String TABLE = "alerts";

  private static final List<String> COLUMNS =
      DecodeEventRows.withProvenance(
          "alert_id",
          "deployment_id",
          "type",
          "state",
          "window_start",
          "emitted_at",
          "metric",
          "observed",
          "reference",
          "p_value",
          "attributed_change",
          "message",
          "evidence_keys",
          "evidence_values");

  @Override
  public Class<Alert> type() {
    return Alert.class;
  }

  /**
   * The start of the window that triggered the raise or clear ({@code window_start}, the table's
   * partition and sort key); a NO_DATA raise names the first missing window.
   */
  @Override
  public Instant eventTime(Alert a) {
    return a.getWindowStart();
  }

  @Override
  public List<String> columns() {
    return COLUMNS;
  }

  @Override
  public void write(Alert a, Source source, Instant insertedAt, ColumnWriter out) {
    out.string("alert_id", a.getAlertId());
    out.string("deployment_id", a.getDeploymentId());
    out.string("type", a.getType().name());
    out.string("state", a.getState().name());
    out.dateTime("window_start", a.getWindowStart());
    out.dateTimeMs("emitted_at", a.getEmittedAt());
    out.nullableString("metric", a.getMetric());
    out.nullableFloat64("observed", a.getObserved());
    out.nullableFloat64("reference", a.getReference());
    out.nullableFloat64("p_value", a.getPValue());
    out.nullableString("attributed_change", a.getAttributedChange());
    out.string("message", a.getMessage());
    MapColumns.write("evidence", a.getEvidence(), out);
    RowMapping.provenance(source, insertedAt, out);
  }
}
