package io.specwatch.streams.alert;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Alert construction and the deterministic alert id. */
public final class Alerts {

  private Alerts() {}

  /**
   * Deterministic id, as documented on Alert.alertId: lowercase hex SHA-256 (first 32 chars) of
   * deploymentId, type, state and the triggering window's start (epoch ms). A replay under
   * exactly-once, or a re-evaluation after a restore, produces the same id, so the ClickHouse sink
   * (natural key alert_id) never counts an alert twice.
   */
  public static String alertId(
      String deploymentId, AlertType type, AlertState state, long windowStart) {
    String material =
        String.join("\u0000", deploymentId, type.name(), state.name(), Long.toString(windowStart));
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(material.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  /** An alert with its id; {@code evidence} is copied into a sorted map. */
  public static Alert alert(
      String deploymentId,
      AlertType type,
      AlertState state,
      long windowStart,
      long emittedAt,
      String metric,
      Double observed,
      Double reference,
      Double pValue,
      String attributedChange,
      String message,
      Map<String, String> evidence) {
    return Alert.newBuilder()
        .setAlertId(alertId(deploymentId, type, state, windowStart))
        .setDeploymentId(deploymentId)
        .setType(type)
        .setState(state)
        .setWindowStart(Instant.ofEpochMilli(windowStart))
        .setEmittedAt(Instant.ofEpochMilli(emittedAt))
        .setMetric(metric)
        .setObserved(observed)
        .setReference(reference)
        .setPValue(pValue)
        .setAttributedChange(attributedChange)
        .setMessage(message)
        .setEvidence(new TreeMap<>(evidence))
        .build();
  }

  /** A number for the evidence map: up to 6 significant digits, "Infinity"/"NaN" as such. */
  public static String num(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.toString(v);
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.6g", v).replaceFirst("\\.?0+(e|$)", "$1");
  }
}
