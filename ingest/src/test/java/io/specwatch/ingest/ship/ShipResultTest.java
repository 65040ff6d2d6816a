package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The shipper's running {@link ShipResult.Tally}: a line counts as recognised unless a part of it
 * is a dead letter, a skip or unrecognised, and every RunContext part counts (the rule as ship
 * documents it, written here over the parts list).
 */
class ShipResultTest {

  // the outcome kinds; the records' contents do not matter to the counts
  private static final List<IngestOutcome> SINGLE =
      List.of(
          new IngestOutcome.Event(new DecodeEvent()),
          new IngestOutcome.Request(new RequestAcceptance()),
          new IngestOutcome.Context(new RunContext()),
          new IngestOutcome.Dead(new DeadLetter()),
          new IngestOutcome.Skipped("sglang.decode", "spec_verify_ct = 0"),
          new IngestOutcome.Recognised("vllm.v1.config"),
          new IngestOutcome.Unrecognised());

  @Test
  void eachSingleOutcomeCountsAsThePartSum() {
    for (IngestOutcome o : SINGLE) {
      ShipResult.Tally t = new ShipResult.Tally(ShipResult.empty());
      t.add(o);
      assertThat(t.result()).as("%s", o).isEqualTo(expected(ShipResult.empty(), o));
    }
    // spot checks against hand counts
    ShipResult.Tally t = new ShipResult.Tally(ShipResult.empty());
    SINGLE.forEach(t::add);
    assertThat(t.result()).isEqualTo(new ShipResult(7, 4, 1, 1, 1, 1));
  }

  @Test
  void randomSequencesOfSingleAndManyOutcomesCountAlike() {
    Random r = new Random(42);
    for (int run = 0; run < 200; run++) {
      ShipResult start = new ShipResult(r.nextInt(5), r.nextInt(5), 0, 1, 2, r.nextInt(3));
      ShipResult.Tally tally = new ShipResult.Tally(start);
      ShipResult reference = start;
      for (int line = 0; line < 30; line++) {
        IngestOutcome o;
        if (r.nextInt(3) == 0) {
          List<IngestOutcome> parts = new ArrayList<>();
          for (int p = 1 + r.nextInt(3); p > 0; p--) {
            parts.add(SINGLE.get(r.nextInt(SINGLE.size())));
          }
          o = new IngestOutcome.Many(parts);
        } else {
          o = SINGLE.get(r.nextInt(SINGLE.size()));
        }
        tally.add(o);
        reference = expected(reference, o);
      }
      assertThat(tally.result()).isEqualTo(reference);
    }
  }

  private static ShipResult expected(ShipResult r, IngestOutcome o) {
    List<IngestOutcome> parts = o.parts();
    boolean dead = parts.stream().anyMatch(p -> p instanceof IngestOutcome.Dead);
    boolean skip = parts.stream().anyMatch(p -> p instanceof IngestOutcome.Skipped);
    boolean none = parts.stream().anyMatch(p -> p instanceof IngestOutcome.Unrecognised);
    long contexts = parts.stream().filter(p -> p instanceof IngestOutcome.Context).count();
    return new ShipResult(
        r.linesRead() + 1,
        r.recognised() + (dead || skip || none ? 0 : 1),
        r.deadLettered() + (dead ? 1 : 0),
        r.unrecognised() + (none ? 1 : 0),
        r.skipped() + (skip ? 1 : 0),
        r.runContexts() + contexts);
  }
}
