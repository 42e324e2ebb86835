/**
 * The runner fleet and its drives, as the runners' heartbeats report them: who is alive,
 * which drive is where, and what each runner's interlocks say about it.
 */
package io.drivequal.service.runners;
