-- Round-robin over endpoints kept in a shared dict. Each worker caches the parsed
-- list and re-reads it only when the version changes: one dict lookup per request.
local ngx_balancer = require("ngx.balancer")
local dict = ngx.shared.tailgate_endpoints
local _M = {}
local cached_version = -1
local peers = {}
local rr = 0

local function refresh()
  local version = dict:get("version") or 0
  if version == cached_version then return end
  local list = {}
  for host, port in string.gmatch(dict:get("endpoints") or "", "([%d%.]+):(%d+)") do
    list[#list + 1] = { host, tonumber(port) }
  end
  peers = list
  cached_version = version
end

function _M.balance(more_tries)
  refresh()
  local n = #peers
  if n == 0 then return ngx.exit(503) end
  rr = rr + 1
  local peer = peers[(rr % n) + 1]
  if more_tries > 0 and not ngx.ctx.tried then
    ngx.ctx.tried = true
    ngx_balancer.set_more_tries(math.min(more_tries, n - 1))
  end
  local ok, err = ngx_balancer.set_current_peer(peer[1], peer[2])
  if not ok then ngx.log(ngx.ERR, "set_current_peer: ", err) return ngx.exit(500) end
end

-- POST body: one "host:port" per line, the whole endpoint set.
function _M.configure()
  if ngx.req.get_method() ~= "POST" then return ngx.exit(405) end
  ngx.req.read_body()
  local body = ngx.req.get_body_data() or ""
  dict:set("endpoints", body)
  local version = dict:incr("version", 1, 0)
  ngx.say("version ", version)
end

return _M
