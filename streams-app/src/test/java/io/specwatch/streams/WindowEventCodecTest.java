package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.event;
import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** The event log entry keeps every field the window reads, nulls included. */
class WindowEventCodecTest {
  private static List<DecodeEvent> events() {
    return List.of(
        full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 3),
        DecodeEvent.newBuilder(full("dep-a", 11, 7, 1.5, 5, 9, 12.5, 33.0, 900.0, 17))
            .setSpecEnabled(false)
            .setPromptCategory("chat ü")
            .setDraftMs(3.25)
            .setVerifyMs(9.75)
            .setPerPositionAccepted(Arrays.asList(7L, null, 2L))
            .setPerPositionAcceptance(Arrays.asList(0.9, 0.5, null, 0.1))
            .build(),
        event("dep-b", 12).build()); // every optional metric null
  }

  @Test
  void roundTripKeepsWhatTheWindowReads() {
    for (DecodeEvent e : events()) {
      for (boolean late : new boolean[] {false, true}) {
        byte[] bytes = WindowEventCodec.write(new WindowInput(e, late), 123_456L);
        WindowEventCodec.Entry entry = WindowEventCodec.read(bytes);
        assertThat(entry.timestamp()).isEqualTo(123_456L);
        assertThat(entry.input().late()).isEqualTo(late);
        DecodeEvent r = entry.input().event();
        assertThat(r.getSpecEnabled()).isEqualTo(e.getSpecEnabled());
        assertThat(r.getPromptCategory()).isEqualTo(e.getPromptCategory());
        assertThat(r.getRunningRequests()).isEqualTo(e.getRunningRequests());
        assertThat(r.getCycles()).isEqualTo(e.getCycles());
        assertThat(r.getAcceptLength()).isEqualTo(e.getAcceptLength());
        assertThat(r.getAcceptedTokens()).isEqualTo(e.getAcceptedTokens());
        assertThat(r.getDraftedTokens()).isEqualTo(e.getDraftedTokens());
        assertThat(r.getCycleMs()).isEqualTo(e.getCycleMs());
        assertThat(r.getGenThroughputTokS()).isEqualTo(e.getGenThroughputTokS());
        assertThat(r.getIntervalMs()).isEqualTo(e.getIntervalMs());
        assertThat(r.getDraftMs()).isEqualTo(e.getDraftMs());
        assertThat(r.getVerifyMs()).isEqualTo(e.getVerifyMs());
        assertThat(r.getPerPositionAccepted()).isEqualTo(e.getPerPositionAccepted());
        assertThat(r.getPerPositionAcceptance()).isEqualTo(e.getPerPositionAcceptance());
        // and the window built from the log equals the window built from the events
        assertThat(DeploymentWindow.empty().add(entry.input()))
            .isEqualTo(DeploymentWindow.empty().add(new WindowInput(e, late)));
      }
    }
  }

  @Test
  void badEntriesFailAsSerializationErrors() {
    byte[] good = WindowEventCodec.write(new WindowInput(events().get(1), false), 1L);
    assertThatThrownBy(() -> WindowEventCodec.read(Arrays.copyOf(good, good.length - 3)))
        .isInstanceOf(SerializationException.class);
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    assertThatThrownBy(() -> WindowEventCodec.read(longer))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("trailing");
    byte[] otherVersion = good.clone();
    otherVersion[0] = 9;
    assertThatThrownBy(() -> WindowEventCodec.read(otherVersion))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("version");
  }
}
