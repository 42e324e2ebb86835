/*
 * /api/v1/webhooks: subscribe (the secret is in this answer and never again), list what the caller
 * may manage, look one up, delete it, send it a test event, and read its delivery log. A URL that
 * is not http(s) or leads outside the operator's allowed destinations is a 400 naming "url";
 * naming a team the caller is not in is a 403; in either case nothing is stored.
 */
package io.drivequal.service.webhooks;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import io.drivequal.service.audit.AuditNotes;
import io.drivequal.service.audit.Audited;
import io.drivequal.service.platform.BadRequestException;
import io.drivequal.service.platform.ConflictException;
import io.drivequal.service.platform.ForbiddenException;
import io.drivequal.service.platform.NotFoundException;
import io.drivequal.service.security.Callers;
import io.drivequal.service.security.Role;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/webhooks")
@Validated
class WebhookController {

	private static final Logger log = LoggerFactory.getLogger(WebhookController.class);

	private final SubscriptionStore subscriptions;

	private final DeliveryStore deliveries;

	private final DestinationPolicy policy;

	private final SecretBox secrets;

	private final WebhookSettings settings;

	private final Clock clock;

	WebhookController(SubscriptionStore subscriptions, DeliveryStore deliveries, DestinationPolicy policy,
			SecretBox secrets, WebhookSettings settings, Clock clock) {
		this.subscriptions = subscriptions;
		this.deliveries = deliveries;
		this.policy = policy;
		this.secrets = secrets;
		this.settings = settings;
		this.clock = clock;
	}

	/**
	 * @param url where deliveries are POSTed: http or https, allowed by the operator's
	 * destination policy
	 * @param events any of state-changed, verdict (a job's), campaign-state-changed,
	 * campaign-verdict (a campaign's); default: all four
	 * @param scope own (default: the owner's jobs, or the team members' jobs) or all
	 * @param team the team that owns the subscription; the caller must be a member
	 */
	record CreateSubscription(@NotBlank @Size(min = 1, max = 2048) String url,
			@Size(max = 4) List<@NotBlank @Pattern(
					regexp = "^(state-changed|verdict|campaign-state-changed|campaign-verdict)$") String> events,
			@Pattern(regexp = "^(own|all)$") String scope, @Size(min = 1, max = 64) String team,
			@Size(max = 256) String description) {
	}

	/** A subscription as the API shows it: never its secret. */
	record SubscriptionView(String id, String url, List<String> events, String scope, String owner, String team,
			String description, Instant createdAt) {

		static SubscriptionView of(Subscription subscription) {
			return new SubscriptionView(subscription.subscriptionId(), subscription.url(), subscription.events(),
					subscription.scope(), subscription.owner(), subscription.team(), subscription.description(),
					subscription.createdAt());
		}

	}

	/** The answer to a subscription: the only time its secret is shown. */
	record CreatedSubscription(String id, String url, List<String> events, String scope, String owner, String team,
			String description, Instant createdAt, String secret) {
	}

	record DeliveryView(String id, String eventId, String eventType, String jobId, Delivery.Status status, int attempts,
			Instant createdAt, Instant lastAttemptAt, Instant nextAttemptAt, Instant deliveredAt,
			Integer lastStatusCode, String lastError, Long lastDurationMs) {

		static DeliveryView of(Delivery delivery) {
			return new DeliveryView(delivery.deliveryId(), delivery.eventId(), delivery.eventType(), delivery.jobId(),
					delivery.status(), delivery.attempts(), delivery.createdAt(), delivery.lastAttemptAt(),
					(delivery.status() == Delivery.Status.PENDING) ? delivery.nextAttemptAt() : null,
					delivery.deliveredAt(), delivery.lastStatusCode(), delivery.lastError(), delivery.lastDurationMs());
		}

	}

	record DeliveryPage(long total, int page, int size, List<DeliveryView> items) {
	}

	record TestEvent(String eventId) {
	}

	@PostMapping
	@Audited("webhook.create")
	@ApiResponse(responseCode = "201", description = "subscribed; the only answer that shows the secret")
	@ApiResponse(responseCode = "409", ref = "#/components/responses/Conflict")
	ResponseEntity<CreatedSubscription> create(@Valid @RequestBody CreateSubscription request, Authentication caller) {
		URI url;
		try {
			// The host goes into the audit entry, refused or not (never the path or
			// query).
			AuditNotes.put("host", URI.create(request.url().trim()).getHost());
		}
		catch (IllegalArgumentException ex) {
			// Not a URL at all: the policy's check below says so.
		}
		try {
			url = this.policy.check(request.url().trim());
		}
		catch (DestinationPolicy.RefusedDestination ex) {
			throw new BadRequestException("url", "the URL " + ex.getMessage());
		}
		String host = url.getHost().toLowerCase(Locale.ROOT);
		String team = (request.team() != null) ? request.team().trim() : null;
		if (team != null) {
			AuditNotes.put("team", team);
			if (!Callers.teams(caller).contains(team) && !Callers.has(caller, Role.ADMIN)) {
				throw new ForbiddenException("you are not a member of team " + team);
			}
		}
		if (this.subscriptions.countHeldBy(caller.getName(), team) >= this.settings.maxSubscriptionsPerOwner()) {
			throw new ConflictException(((team != null) ? "team " + team : caller.getName()) + " already holds "
					+ this.settings.maxSubscriptionsPerOwner() + " webhook subscriptions; delete one first");
		}
		List<String> events = (request.events() == null || request.events().isEmpty()) ? EventKind.subscribable()
				: request.events().stream().distinct().toList();
		String secret = WebhookSignature.newSecret();
		Subscription subscription = new Subscription("wh-" + UUID.randomUUID().toString().replace("-", ""),
				url.toString(), host, events, (request.scope() != null) ? request.scope() : Subscription.SCOPE_OWN,
				caller.getName(), team, request.description(), this.clock.instant(), this.secrets.seal(secret));
		this.subscriptions.create(subscription);
		log.info("webhook subscription {} by {} to host {} for {}", subscription.subscriptionId(), caller.getName(),
				host, events);
		return ResponseEntity.created(URI.create("/api/v1/webhooks/" + subscription.subscriptionId()))
			.body(new CreatedSubscription(subscription.subscriptionId(), subscription.url(), events,
					subscription.scope(), subscription.owner(), team, subscription.description(),
					subscription.createdAt(), secret));
	}

	/** The caller's subscriptions and those of the caller's teams; an admin sees all. */
	@GetMapping
	List<SubscriptionView> list(Authentication caller) {
		return this.subscriptions.all()
			.stream()
			.filter((subscription) -> subscription.isManageableBy(caller))
			.map(SubscriptionView::of)
			.toList();
	}

	@GetMapping("/{id}")
	SubscriptionView get(@PathVariable String id, Authentication caller) {
		return SubscriptionView.of(manageable(id, caller));
	}

	@DeleteMapping("/{id}")
	@Audited("webhook.delete")
	@ApiResponse(responseCode = "204", description = "unsubscribed")
	ResponseEntity<Void> delete(@PathVariable String id, Authentication caller) {
		Subscription subscription = manageable(id, caller);
		AuditNotes.put("host", subscription.host());
		this.subscriptions.delete(id);
		return ResponseEntity.noContent().build();
	}

	/** Queues a test event for this subscription only; it is delivered like any other. */
	@PostMapping("/{id}/test")
	@Audited("webhook.test")
	@ApiResponse(responseCode = "202", description = "queued; delivered like any other event")
	ResponseEntity<TestEvent> test(@PathVariable String id, Authentication caller) {
		Subscription subscription = manageable(id, caller);
		Instant now = this.clock.instant();
		String eventId = "test-" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
		this.deliveries.enqueue(List.of(Delivery.queued(eventId, EventKind.TEST.cloudEventType(), null,
				subscription.subscriptionId(), CloudEventPayloads.test(eventId, id, now), now)));
		return ResponseEntity.status(HttpStatus.ACCEPTED).body(new TestEvent(eventId));
	}

	@GetMapping("/{id}/deliveries")
	DeliveryPage deliveries(@PathVariable String id, @RequestParam(required = false) Delivery.Status status,
			@RequestParam(defaultValue = "0") @Min(0) @Max(1000) int page,
			@RequestParam(defaultValue = "50") @Min(1) @Max(200) int size, Authentication caller) {
		manageable(id, caller);
		if ((long) (page + 1) * size > 10000) {
			throw new BadRequestException("page", "page * size must stay within the first 10000 deliveries");
		}
		DeliveryStore.Page result = this.deliveries.log(id, status, page, size);
		return new DeliveryPage(result.total(), page, size,
				result.deliveries().stream().map(DeliveryView::of).toList());
	}

	/** Someone else's subscription is as unknown as a missing one: its URL is private. */
	private Subscription manageable(String id, Authentication caller) {
		return this.subscriptions.find(id)
			.filter((subscription) -> subscription.isManageableBy(caller))
			.orElseThrow(() -> new NotFoundException("no webhook subscription " + id));
	}

}
