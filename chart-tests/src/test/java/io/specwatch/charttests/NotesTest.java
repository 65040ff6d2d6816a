package io.specwatch.charttests;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.Release;
import org.junit.jupiter.api.Test;

/** NOTES.txt, as a client-only dry-run install prints it (no cluster involved). */
class NotesTest {

  @Test
  void notesNameTheWorkloadsAndTheImage() {
    Release release =
        new Helm(Chart.dir())
            .install()
            .withName(Chart.RELEASE)
            .withNamespace(Chart.NAMESPACE)
            .dryRun()
            .clientOnly()
            .call();
    assertThat(release.getAppVersion()).isEqualTo(Chart.appVersion());
    assertThat(release.getOutput())
        .contains("specwatch/app:" + Chart.appVersion())
        .contains("DaemonSet   " + Chart.FULLNAME + "-shipper")
        .contains("StatefulSet " + Chart.FULLNAME + "-streams")
        .contains("Deployment  " + Chart.FULLNAME + "-sink")
        .contains("writable by UID 10001");
  }
}
