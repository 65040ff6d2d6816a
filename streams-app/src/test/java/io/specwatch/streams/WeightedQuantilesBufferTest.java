package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;
import org.junit.jupiter.api.Test;

/**
 * The first {@link WeightedQuantiles#BUFFERED_UPDATES} updates are buffered, not sketched: the
 * result must be the sketch a plain KLL sketch gets from the same updates, below, at and above the
 * buffer size (serialised bytes and quantiles equal). Up to 150 updates, below k = 200, where KLL
 * compacts nothing and is deterministic (its compactions flip coins).
 */
class WeightedQuantilesBufferTest {
  @Test
  void bufferedUpdatesGiveTheSketchOfTheSameUpdates() {
    Random random = new Random(7);
    for (int n : new int[] {1, 5, WeightedQuantiles.BUFFERED_UPDATES, 65, 150}) {
      WeightedQuantiles q = new WeightedQuantiles();
      KllDoublesSketch plain = KllDoublesSketch.newHeapInstance(WeightedQuantiles.K);
      for (int i = 0; i < n; i++) {
        double value = 10 + random.nextGaussian() * 3;
        long weight = 1 + random.nextInt(3);
        q.add(value, weight);
        if (weight == 1) {
          plain.update(value);
        } else {
          plain.update(value, weight);
        }
      }
      assertThat(q.weight()).as("n=%d", n).isEqualTo(plain.getN());
      WeightedQuantiles copy = WeightedQuantiles.fromBytes(q.toBytes());
      assertThat(copy.toBytes()).as("n=%d", n).isEqualTo(plain.toByteArray());
      for (double rank : new double[] {0.5, 0.95, 0.99}) {
        assertThat(q.quantile(rank))
            .as("n=%d rank %s", n, rank)
            .isEqualTo(plain.getQuantile(rank, QuantileSearchCriteria.INCLUSIVE));
      }
      // a read in between does not change what later updates give
      q.add(42.0, 1);
      plain.update(42.0);
      assertThat(q.quantile(0.99))
          .as("n=%d then one more", n)
          .isEqualTo(plain.getQuantile(0.99, QuantileSearchCriteria.INCLUSIVE));
    }
  }

  @Test
  void exactQuantilesOfTheBufferAreTheSketchAnswersWhileItCompactsNothing() {
    Random random = new Random(11);
    for (int n = 1; n <= WeightedQuantiles.BUFFERED_UPDATES; n++) {
      WeightedQuantiles q = new WeightedQuantiles();
      KllDoublesSketch plain = KllDoublesSketch.newHeapInstance(WeightedQuantiles.K);
      for (int i = 0; i < n; i++) {
        double value = Math.round((5 + random.nextGaussian()) * 4) / 4.0; // ties on purpose
        long weight = random.nextBoolean() ? 1 : 1 + random.nextInt(3);
        q.add(value, weight);
        if (weight == 1) {
          plain.update(value);
        } else {
          plain.update(value, weight);
        }
      }
      assertThat(q.weight()).isEqualTo(plain.getN());
      for (double rank = 0.0; rank <= 1.0; rank += 0.01) {
        assertThat(q.quantile(rank))
            .as("n=%d rank %s", n, rank)
            .isEqualTo(plain.getQuantile(rank, QuantileSearchCriteria.INCLUSIVE));
      }
      for (double rank : new double[] {0.5, 0.95, 0.99, 1.0}) {
        assertThat(q.quantile(rank))
            .as("n=%d rank %s", n, rank)
            .isEqualTo(plain.getQuantile(rank, QuantileSearchCriteria.INCLUSIVE));
      }
    }
  }
}
