/**
 * Turns a finished job's samples, histograms and SMART snapshots into its analysis (SNIA
 * steady state, consistency, latency QoS, throughput, WAF, endurance, TRIM and idle
 * recovery) and its verdict against the buyer's criteria, with the drivequal-analysis
 * library.
 */
package io.drivequal.service.analysis;
