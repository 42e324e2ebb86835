/*
 * Everything one fleet run measured, filled as the run goes and written up by FleetReport.
 */
package io.drivequal.service.fleet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

final class FleetResults {

	String run;

	String loadBefore;

	String loadAfter;

	String startedAt;

	/** Drives the runners reported, and how long until all were in the inventory. */
	int drivesSeen;

	double inventoryS;

	int heartbeatBytesMax;

	// bad input
	long storeBeforeBad;

	long storeAfterBad;

	long commandsBeforeBad;

	long commandsAfterBad;

	Map<Integer, Integer> badStatuses;

	double badSeconds;

	// warm-up round
	int warmupJobs;

	Map<String, Long> warmupStates = Map.of();

	double warmupEndedAfterS;

	int warmupAnalysed;

	long warmupDeleted;

	// submission
	double submitSeconds;

	long storeWithHistory;

	double allRunningAfterS;

	int runningSeen;

	final Histogram submitToRunningMs = new Histogram(3_600_000, 3);

	final Histogram submitToAcceptedMs = new Histogram(3_600_000, 3);

	// while running
	ApiLoad.Result api;

	List<String> screenshots = new ArrayList<>();

	// replica kill
	long killedAtMs;

	double takeoverS = -1;

	String takeoverNote;

	// after the run
	Map<String, Long> finalStates;

	double endedAfterS;

	Histogram freshnessAll;

	Histogram freshnessSteady;

	Histogram freshnessKillWindow;

	Histogram freshnessOutsideKill;

	/**
	 * Freshness of the samples produced in the minute before each row of the timeline, by
	 * the row's wall-clock time.
	 */
	Map<Long, Histogram> freshnessByMinute = new HashMap<>();

	double pollP50Ms;

	SampleAudit.KafkaCounts kafka;

	/** Per job in Elasticsearch: exactly runtimeS documents, t = 1..runtimeS. */
	int jobsExact;

	int jobsCounted;

	long documents;

	long lost;

	long extra;

	long phaseResultSamplesMismatch = -1;

	long sampleIndexBytes;

	long sampleIndexDocs;

	long sampleIndexMergedBytes;

	int analysed;

	double analysisS;

}
