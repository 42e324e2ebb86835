/*
 * The body of a webhook: one CloudEvents 1.0 event in the structured JSON format (content type
 * application/cloudevents+json), built and written by the CNCF CloudEvents SDK. The data is a JSON
 * object describing the job (docs/api.md, "Webhooks"); built once when the event is queued, so
 * every attempt sends the same bytes.
 */
package io.drivequal.service.webhooks;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.core.format.EventFormat;
import io.cloudevents.core.provider.EventFormatProvider;
import io.cloudevents.jackson.JsonFormat;
import io.drivequal.service.campaigns.CampaignChanged;
import io.drivequal.service.qualification.QualificationChanged;

final class CloudEventPayloads {

	static final String CONTENT_TYPE = JsonFormat.CONTENT_TYPE + "; charset=utf-8";

	private static final URI SOURCE = URI.create("/api/v1/qualifications");

	private static final URI CAMPAIGNS = URI.create("/api/v1/campaigns");

	private static final ObjectMapper JSON = new ObjectMapper();

	private static final EventFormat FORMAT = EventFormatProvider.getInstance().resolveFormat(JsonFormat.CONTENT_TYPE);

	private CloudEventPayloads() {
	}

	static String of(QualificationChanged change) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("jobId", change.jobId());
		data.put("state", change.state().name());
		putIfPresent(data, "previousState", (change.previousState() != null) ? change.previousState().name() : null);
		putIfPresent(data, "verdict", change.verdict());
		putIfPresent(data, "submitter", change.submitter());
		Map<String, Object> drive = new LinkedHashMap<>();
		putIfPresent(drive, "serial", change.deviceSerial());
		putIfPresent(drive, "model", change.driveModel());
		putIfPresent(drive, "firmware", change.firmware());
		data.put("drive", drive);
		putIfPresent(data, "profile", change.profile());
		putIfPresent(data, "failureReason", change.failureReason());
		putIfPresent(data, "message", change.message());
		data.put("href", SOURCE + "/" + change.jobId());
		EventKind kind = EventKind.of(change);
		return write(EventKind.eventId(change), kind, SOURCE, change.jobId(), change.time(), data);
	}

	/** A campaign's state change or model verdict (docs/api.md, "Webhooks"). */
	static String of(CampaignChanged change) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("campaignId", change.campaignId());
		putIfPresent(data, "name", change.name());
		data.put("state", change.state().name());
		putIfPresent(data, "previousState", (change.previousState() != null) ? change.previousState().name() : null);
		putIfPresent(data, "verdict", change.verdict());
		putIfPresent(data, "submitter", change.submitter());
		Map<String, Object> model = new LinkedHashMap<>();
		putIfPresent(model, "vendor", change.vendor());
		putIfPresent(model, "model", change.model());
		putIfPresent(model, "firmware", change.firmware());
		data.put("model", model);
		data.put("counts", change.counts());
		data.put("reruns", change.round());
		if (change.verdict() != null) {
			data.put("reasons", change.reasons());
			data.put("failingSamples", change.failingSamples());
		}
		data.put("href", CAMPAIGNS + "/" + change.campaignId());
		return write(change.eventId(), EventKind.of(change), CAMPAIGNS, change.campaignId(), change.time(), data);
	}

	/** A test event for one subscription; its id is unique per request. */
	static String test(String eventId, String subscriptionId, Instant time) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("subscriptionId", subscriptionId);
		data.put("message", "a test delivery, sent on request");
		return write(eventId, EventKind.TEST, SOURCE, null, time, data);
	}

	private static String write(String id, EventKind kind, URI source, String subject, Instant time,
			Map<String, Object> data) {
		try {
			CloudEventBuilder builder = CloudEventBuilder.v1()
				.withId(id)
				.withSource(source)
				.withType(kind.cloudEventType())
				.withTime(OffsetDateTime.ofInstant((time != null) ? time : Instant.EPOCH, ZoneOffset.UTC))
				.withDataContentType("application/json")
				.withData(JSON.writeValueAsBytes(data));
			if (subject != null) {
				builder.withSubject(subject);
			}
			CloudEvent event = builder.build();
			return new String(FORMAT.serialize(event), StandardCharsets.UTF_8);
		}
		catch (JsonProcessingException ex) {
			throw new IllegalStateException("a map of strings is always JSON", ex);
		}
	}

	private static void putIfPresent(Map<String, Object> map, String key, Object value) {
		if (value != null) {
			map.put(key, value);
		}
	}

}
