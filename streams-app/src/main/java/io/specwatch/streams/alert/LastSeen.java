package io.specwatch.streams.alert;

/**
 * NO_DATA state of one deployment.
 *
 * @param lastWindowStart start of the newest window seen, epoch ms
 * @param lastWindowEnd end of the newest window seen, epoch ms
 * @param lastArrivalWallMs wall-clock time the newest window was processed, epoch ms
 * @param noDataRaised whether NO_DATA is raised
 */
public record LastSeen(
    long lastWindowStart, long lastWindowEnd, long lastArrivalWallMs, boolean noDataRaised) {}
