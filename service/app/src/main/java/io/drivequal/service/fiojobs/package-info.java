/**
 * fio job files in: a buyer's job file (global and job sections) becomes a plan of
 * multi-stream workload phases for the subset of fio's options the runner implements; any
 * other option is refused with its name and line, never replaced by a different workload
 * (docs/user-guide.md, "Bringing a fio job file").
 */
package io.drivequal.service.fiojobs;
