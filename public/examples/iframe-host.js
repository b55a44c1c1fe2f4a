// The embedding page's side of embed.html's postMessage API: buttons that drive it, and a list of
// the events it sends. `?embed=<url>` loads another embed URL (the tests use it for a second origin).
const frame = document.getElementById('fx')
const params = new URLSearchParams(location.search)
if (params.get('embed')) frame.src = params.get('embed')
const target = () => new URL(frame.src, location.href).origin
const send = (message) => frame.contentWindow.postMessage({ fxterm: 1, ...message }, target())

window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.data?.fxterm !== 1) return
  const item = document.createElement('li')
  item.textContent = JSON.stringify(event.data)
  document.getElementById('events').append(item)
  if (event.data.type === 'ready') for (const id of ['run', 'reset']) document.getElementById(id).disabled = false
})
document.getElementById('run').addEventListener('click', () => send({ type: 'run', text: "what's in this project?" }))
document.getElementById('reset').addEventListener('click', () => send({ type: 'reset' }))
// For tests and the console: fxEmbed.send({type: 'type', text: 'hello'}).
window.fxEmbed = { send }
