package io.specwatch.sink.finetune;

import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.cookbook.QueryParam;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draft fine-tuning data selection: from per-request acceptance ({@code request_acceptance FINAL}),
 * the prompts where the drafter fails most relative to similar prompts.
 *
 * <ol>
 *   <li>Filter: finished in {@code [from, to)}, deployment / model / draft-model version if given,
 *       at least {@code minOutputTokens} output tokens and one verify cycle (short requests say
 *       little about the drafter), and a prompt hash or reference (else there is nothing to train
 *       on).
 *   <li>Dedup by prompt: the prompt key is the hash, else the reference; of the requests sharing it
 *       the one with the lowest tau is kept (ties: earliest finish, then event id).
 *   <li>Per category (missing category = {@code ''}): the median tau of its prompts ({@code
 *       quantileExact(0.5)}: with an even count, the upper of the two middle values).
 *   <li>Cut: a prompt qualifies when {@code tau < maxRelativeTau * median}; within its category
 *       they are ranked by tau ascending (then finish time, event id).
 *   <li>Balance ({@link Balancer}): categories take turns in name order, each turn its next-worst,
 *       until {@code limit} prompts are taken.
 * </ol>
 *
 * Steps 1-4 run in ClickHouse (one query, 18.16-compatible: no WITH, no window functions); step 5
 * in Java.
 */
public final class FinetuneSelector {

  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static final QueryParam STRING = new QueryParam("value", "String", "", "");
  private static final QueryParam TIME = new QueryParam("time", "DateTime", "2000-01-01", "");
  private static final QueryParam NUMBER = new QueryParam("max_relative_tau", "Float64", "1", "");
  private static final String PROMPT_KEY = "ifNull(prompt_hash, ifNull(prompt_ref, ''))";

  private final ClickHouseSql sql;
  private final String database;

  public FinetuneSelector(ClickHouseSql sql, String database) {
    this.sql = sql;
    this.database = database;
  }

  /** Runs the selection. */
  public Selection select(FinetuneCriteria criteria) {
    Selection.Funnel funnel = funnel(criteria);
    List<List<String>> rows = sql.queryTsvWithNames(candidatesQuery(database, criteria));
    Map<String, List<Candidate>> byCategory = new LinkedHashMap<>();
    Map<String, Candidate> firstOf = new LinkedHashMap<>();
    for (List<String> r : rows.subList(1, rows.size())) {
      Candidate c = candidate(r);
      byCategory.computeIfAbsent(c.category(), k -> new ArrayList<>()).add(c);
      firstOf.putIfAbsent(c.category(), c);
    }
    List<Selection.Selected> selected = Balancer.balance(byCategory, criteria.limit());
    Map<String, Selection.CategoryStats> stats = new LinkedHashMap<>();
    List<List<String>> medians = sql.queryTsvWithNames(mediansQuery(database, criteria));
    for (List<String> r : medians.subList(1, medians.size())) {
      String category = r.get(0);
      int chosen =
          (int) selected.stream().filter(s -> s.candidate().category().equals(category)).count();
      stats.put(
          category,
          new Selection.CategoryStats(
              category,
              Long.parseLong(r.get(2)),
              Double.parseDouble(r.get(1)),
              byCategory.getOrDefault(category, List.of()).size(),
              chosen));
    }
    return new Selection(selected, stats, funnel);
  }

  private Selection.Funnel funnel(FinetuneCriteria c) {
    List<String> r = sql.queryTsvWithNames(funnelQuery(database, c)).get(1);
    long eligibleCount = Long.parseLong(r.get(3));
    long prompts = Long.parseLong(r.get(4));
    return new Selection.Funnel(
        Long.parseLong(r.get(0)),
        Long.parseLong(r.get(1)),
        Long.parseLong(r.get(2)),
        eligibleCount - prompts,
        prompts);
  }

  /** requests, too_short, no_prompt, eligible, prompts (distinct prompt keys among eligible). */
  public static String funnelQuery(String database, FinetuneCriteria c) {
    String eligible = "output_tokens >= " + c.minOutputTokens() + " AND verify_cycles > 0";
    String hasPrompt = "(isNotNull(prompt_hash) OR isNotNull(prompt_ref))";
    return "SELECT count() AS requests,"
        + " countIf(NOT ("
        + eligible
        + ")) AS too_short,"
        + " countIf(("
        + eligible
        + ") AND NOT "
        + hasPrompt
        + ") AS no_prompt,"
        + " countIf(("
        + eligible
        + ") AND "
        + hasPrompt
        + ") AS eligible,"
        + " uniqExactIf("
        + PROMPT_KEY
        + ", ("
        + eligible
        + ") AND "
        + hasPrompt
        + ") AS prompts"
        + " FROM "
        + database
        + ".request_acceptance FINAL WHERE "
        + filter(c);
  }

  /** Time range and equality filters, as typed literals. */
  static String filter(FinetuneCriteria c) {
    StringBuilder w = new StringBuilder();
    w.append("finished_at >= ")
        .append(TIME.literal(DATE_TIME.format(c.from())))
        .append(" AND finished_at < ")
        .append(TIME.literal(DATE_TIME.format(c.to())));
    c.deployment().ifPresent(d -> w.append(" AND deployment_id = ").append(STRING.literal(d)));
    c.model().ifPresent(m -> w.append(" AND model = ").append(STRING.literal(m)));
    c.draftModelVersion()
        .ifPresent(v -> w.append(" AND draft_model_version = ").append(STRING.literal(v)));
    return w.toString();
  }

  /** One row per prompt key: the worst request's fields as a tuple, dedup count, min tau. */
  static String dedupQuery(String database, FinetuneCriteria c) {
    return "SELECT tupleElement(worst, 1) AS category, prompt_key, duplicates, tau, worst FROM"
        + " (SELECT prompt_key, count() AS duplicates, min(accept_length) AS tau,"
        + " argMin(tuple(ifNull(prompt_category, ''), request_id, event_id, deployment_id,"
        + " ifNull(prompt_hash, ''), ifNull(prompt_ref, ''), ifNull(model, ''),"
        + " ifNull(draft_model_version, ''), toString(finished_at), output_tokens, verify_cycles,"
        + " ifNull(accepted_tokens, -1), ifNull(drafted_tokens, -1)),"
        + " tuple(accept_length, finished_at_ms, event_id)) AS worst"
        + " FROM (SELECT *, "
        + PROMPT_KEY
        + " AS prompt_key FROM "
        + database
        + ".request_acceptance FINAL WHERE "
        + filter(c)
        + " AND output_tokens >= "
        + c.minOutputTokens()
        + " AND verify_cycles > 0)"
        + " WHERE prompt_key != '' GROUP BY prompt_key)";
  }

  /** Category, median tau, candidate prompts. */
  public static String mediansQuery(String database, FinetuneCriteria c) {
    return "SELECT category, quantileExact(0.5)(tau) AS median_tau, count() AS candidates FROM ("
        + dedupQuery(database, c)
        + ") GROUP BY category ORDER BY category";
  }

  /** Qualifying prompts, per category worst first, at most {@code limit} per category. */
  public static String candidatesQuery(String database, FinetuneCriteria c) {
    return "SELECT category, prompt_key, duplicates,"
        + " tupleElement(worst, 2) AS request_id, tupleElement(worst, 3) AS event_id,"
        + " tupleElement(worst, 4) AS deployment_id, tupleElement(worst, 5) AS prompt_hash,"
        + " tupleElement(worst, 6) AS prompt_ref, tupleElement(worst, 7) AS model,"
        + " tupleElement(worst, 8) AS draft_model_version, tupleElement(worst, 9) AS finished_at,"
        + " tau, tupleElement(worst, 10) AS output_tokens,"
        + " tupleElement(worst, 11) AS verify_cycles, tupleElement(worst, 12) AS accepted_tokens,"
        + " tupleElement(worst, 13) AS drafted_tokens, median_tau, candidates"
        + " FROM ("
        + dedupQuery(database, c)
        + ") AS d ALL INNER JOIN ("
        + mediansQuery(database, c)
        + ") AS m USING (category)"
        + " WHERE tau < median_tau * "
        + NUMBER.literal(Double.toString(c.maxRelativeTau()))
        + " ORDER BY category, tau, finished_at, event_id"
        + " LIMIT "
        + c.limit()
        + " BY category";
  }

  private static Candidate candidate(List<String> r) {
    return new Candidate(
        r.get(0),
        r.get(1),
        Long.parseLong(r.get(2)),
        r.get(3),
        r.get(4),
        r.get(5),
        emptyToNull(r.get(6)),
        emptyToNull(r.get(7)),
        emptyToNull(r.get(8)),
        emptyToNull(r.get(9)),
        r.get(10),
        Double.parseDouble(r.get(11)),
        Long.parseLong(r.get(12)),
        Long.parseLong(r.get(13)),
        Long.parseLong(r.get(14)),
        Long.parseLong(r.get(15)),
        Double.parseDouble(r.get(16)),
        Long.parseLong(r.get(17)));
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
