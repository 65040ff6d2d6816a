package io.specwatch.sink;

import com.clickhouse.data.ClickHouseFormat;
import java.util.Locale;

/** How batches travel to ClickHouse. RowBinary is the default (see the README's benchmark). */
public enum InsertFormat {
  ROW_BINARY(ClickHouseFormat.RowBinary),
  JSON_EACH_ROW(ClickHouseFormat.JSONEachRow);

  private final ClickHouseFormat format;

  InsertFormat(ClickHouseFormat format) {
    this.format = format;
  }

  public ClickHouseFormat clickHouseFormat() {
    return format;
  }

  /** {@code rowbinary} or {@code json} (also the ClickHouse names), for {@code --insert-format}. */
  public static InsertFormat parse(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "rowbinary", "row_binary" -> ROW_BINARY;
      case "json", "jsoneachrow", "json_each_row" -> JSON_EACH_ROW;
      default ->
          throw new IllegalArgumentException(
              "--insert-format must be rowbinary or json, got: '" + text + "'");
    };
  }
}
