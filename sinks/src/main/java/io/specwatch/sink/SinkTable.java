package io.specwatch.sink;

import io.specwatch.serde.Topics;
import io.specwatch.sink.rows.AlertRows;
import io.specwatch.sink.rows.DecodeEventRows;
import io.specwatch.sink.rows.RequestAcceptanceRows;
import io.specwatch.sink.rows.RowMapping;
import io.specwatch.sink.rows.RunContextRows;
import io.specwatch.sink.rows.WindowResultRows;
import java.util.Arrays;
import java.util.Locale;

/** The tables the sink loads, each from one topic, with the mapping of its Avro value to a row. */
public enum SinkTable {
  WINDOW_RESULTS(WindowResultRows.TABLE, Topics.WINDOW_RESULTS, new WindowResultRows()),
  ALERTS(AlertRows.TABLE, Topics.ALERTS, new AlertRows()),
  DECODE_EVENTS(DecodeEventRows.TABLE, Topics.DECODE_EVENTS, new DecodeEventRows()),
  REQUEST_ACCEPTANCE(
      RequestAcceptanceRows.TABLE, Topics.REQUEST_ACCEPTANCE, new RequestAcceptanceRows()),
  RUN_CONTEXTS(RunContextRows.TABLE, Topics.RUN_CONTEXT, new RunContextRows());

  private final String table;
  private final String defaultTopic;
  private final RowMapping<?> mapping;

  SinkTable(String table, String defaultTopic, RowMapping<?> mapping) {
    this.table = table;
    this.defaultTopic = defaultTopic;
    this.mapping = mapping;
  }

  /** Table name in the sink's database. */
  public String table() {
    return table;
  }

  /** Topic read unless configured otherwise. */
  public String defaultTopic() {
    return defaultTopic;
  }

  public RowMapping<?> mapping() {
    return mapping;
  }

  /** By table name ({@code decode_events}) or constant name, for {@code --tables}. */
  public static SinkTable parse(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values())
        .filter(t -> t.table.equals(n) || t.name().toLowerCase(Locale.ROOT).equals(n))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "--tables: unknown table '"
                        + name
                        + "', expected some of "
                        + Arrays.stream(values()).map(SinkTable::table).toList()));
  }
}
