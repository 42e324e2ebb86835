-- wrk script of the fault suite's load item (LoadIT): mostly reads over the API's list and detail
-- endpoints, one request in ten a write (an idempotent submission: 201 once, then 200 with the
-- original job). Writes its figures as JSON to the file named by WRK_REPORT when done.
local auth = "Basic " .. os.getenv("WRK_BASIC")
local serial = os.getenv("WRK_SERIAL")
local report = os.getenv("WRK_REPORT")
local reads = {
	"/api/v1/qualifications?size=20",
	"/api/v1/drives",
	"/api/v1/runners",
	"/api/v1/profiles",
	"/api/v1/profiles/consistency-2000s",
	"/api/v1/drives/" .. serial,
}
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
	thread:set("thread_id", #threads)
	table.insert(threads, thread)
end

function request()
	counter = counter + 1
	if counter % 10 == 0 then
		local body = '{"drive":{"serial":"' .. serial .. '"},"plan":{"profile":"consistency-2000s"}}'
		return wrk.format("POST", "/api/v1/qualifications", {
			["Authorization"] = auth,
			["Content-Type"] = "application/json",
			["Idempotency-Key"] = "load-" .. thread_id,
		}, body)
	end
	return wrk.format("GET", reads[(counter % #reads) + 1], { ["Authorization"] = auth })
end

function done(summary, latency, requests)
	local errors = summary.errors
	local file = io.open(report, "w")
	file:write(string.format(
		'{"requests":%d,"durationUs":%d,"non2xx3xx":%d,"connectErrors":%d,"readErrors":%d,' ..
		'"writeErrors":%d,"timeouts":%d,"latencyP50Us":%d,"latencyP90Us":%d,"latencyP99Us":%d,' ..
		'"latencyP999Us":%d,"latencyMaxUs":%d}\n',
		summary.requests, summary.duration, errors.status, errors.connect, errors.read, errors.write,
		errors.timeout, latency:percentile(50), latency:percentile(90), latency:percentile(99),
		latency:percentile(99.9), latency.max))
	file:close()
end
