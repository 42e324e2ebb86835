/**
 * The drives API: the inventory the runners' heartbeats report, each drive with its
 * runner's liveness and its qualification history. It sits above both runners and
 * qualification, which therefore need not know each other's drive views.
 */
package io.drivequal.service.drives;
