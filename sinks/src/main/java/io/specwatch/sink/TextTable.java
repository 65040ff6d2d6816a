package io.specwatch.sink;

import java.util.ArrayList;
import java.util.List;

/** Formats rows (first row = header) as a fixed-width text table; NULL prints as {@code -}. */
public final class TextTable {

  private TextTable() {}

  public static String format(List<List<String>> rowsWithHeader) {
    if (rowsWithHeader.isEmpty()) {
      return "";
    }
    int columns = rowsWithHeader.get(0).size();
    int[] width = new int[columns];
    List<List<String>> cells = new ArrayList<>();
    for (List<String> row : rowsWithHeader) {
      List<String> printable = new ArrayList<>(columns);
      for (int c = 0; c < columns; c++) {
        String v = c < row.size() && row.get(c) != null ? row.get(c) : "-";
        printable.add(v);
        width[c] = Math.max(width[c], v.length());
      }
      cells.add(printable);
    }
    StringBuilder out = new StringBuilder();
    for (int r = 0; r < cells.size(); r++) {
      appendRow(out, cells.get(r), width);
      if (r == 0) {
        List<String> rule = new ArrayList<>(columns);
        for (int w : width) {
          rule.add("-".repeat(w));
        }
        appendRow(out, rule, width);
      }
    }
    return out.toString();
  }

  private static void appendRow(StringBuilder out, List<String> row, int[] width) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < row.size(); c++) {
      if (c > 0) {
        line.append("  ");
      }
      line.append(row.get(c)).append(" ".repeat(width[c] - row.get(c).length()));
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }
}
