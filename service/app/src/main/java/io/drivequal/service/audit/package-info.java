/**
 * The audit trail: every user action on the API (submissions, cancellations, priority
 * changes, subscription and criteria changes, anything else that changes state), every
 * sign-in failure and every request a role refused, with who, when, what, the outcome and
 * the client address. Append-only in Elasticsearch; read by admins only.
 */
package io.drivequal.service.audit;
