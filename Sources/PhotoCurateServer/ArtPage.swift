/// The art-match web page: search box and room upload, results grid with score
/// badges, filters and sorts, and the room visualizer (drag, resize, rotate,
/// opacity, grid, aspect lock, download). One file, no network beyond the API.
enum ArtPage {
    static let html = #"""
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Art match — photocurate</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#fafaf7;color:#222}
header{padding:16px 24px;background:#fff;border-bottom:1px solid #ddd}
h1{margin:0 0 8px;font-size:22px}
#form{display:flex;gap:8px;flex-wrap:wrap;align-items:center}
#query{flex:1;min-width:260px;padding:8px;font-size:15px}
button{background:#FFDA3E;border:0;padding:8px 14px;border-radius:6px;cursor:pointer;font-weight:600}
main{display:flex;gap:16px;padding:16px 24px}
aside{width:220px;flex:none;font-size:14px}
aside fieldset{border:1px solid #ddd;margin:0 0 10px;padding:8px}
#grid{flex:1;display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:14px;align-content:start}
.card{background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002;overflow:hidden;position:relative}
.card img{width:100%;aspect-ratio:1;object-fit:cover;display:block}
.badge{position:absolute;top:8px;right:8px;color:#fff;padding:3px 8px;border-radius:10px;font-size:12px;font-weight:700}
.high{background:#10B981}.medium{background:#F59E0B}.low{background:#6B7280}
.card .body{padding:8px 10px;font-size:13px}.card h3{margin:0;font-size:15px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.card ul{margin:6px 0 6px 16px;padding:0}
#status{margin-left:8px;font-size:14px;color:#555}
#viz{display:none;padding:16px 24px;background:#fff;border-top:1px solid #ddd}
#viz canvas{max-width:100%;border:1px solid #ccc;touch-action:none}
#viz .controls{display:flex;gap:10px;flex-wrap:wrap;align-items:center;margin:8px 0}
</style></head>
<body>
<header><h1>Your Personal Art Agent</h1>
<div id="form"><input id="query" placeholder="e.g. Large abstract blue artwork for a bright office">
<input id="room" type="file" accept="image/*"><button id="find">Find Art</button><span id="status"></span></div></header>
<main><aside>
<fieldset><legend>Price</legend><input id="pmin" type="number" placeholder="min" style="width:70px"> – <input id="pmax" type="number" placeholder="max" style="width:70px"></fieldset>
<fieldset id="styles"><legend>Styles</legend></fieldset>
<fieldset id="colors"><legend>Colours</legend></fieldset>
<fieldset><legend>Artist</legend><input id="artist" placeholder="Search artist…" style="width:180px"></fieldset>
<fieldset><legend>Sort</legend><select id="sort"><option value="best">Best match</option><option value="price_asc">Price: low to high</option>
<option value="price_desc">Price: high to low</option><option value="newest">Newest first</option><option value="random">Random</option></select></fieldset>
<button id="clear">Clear filters</button>
</aside><div id="grid"></div></main>
<section id="viz"><h2 id="vtitle"></h2>
<div class="controls"><button id="rot">Rotate 90°</button><button id="zin">Zoom in</button><button id="zout">Zoom out</button>
<label><input id="gridon" type="checkbox"> Grid</label><label><input id="lock" type="checkbox" checked> Lock aspect</label>
<label>Opacity <input id="opacity" type="range" min="0" max="100" value="100"></label>
<button id="download">Download</button><button id="vclose">Close</button></div>
<canvas id="canvas" width="960" height="640"></canvas></section>
<script>
"use strict";
const STYLES=["abstract","representational","geometric","minimalist","colour field","expressive"];
const COLORS=["red","orange","yellow","green","teal","blue","purple","pink","brown","beige","black","white","grey"];
let all=[], roomB64=null, roomImg=null;
function box(id,vals){const f=document.getElementById(id);for(const v of vals){const l=document.createElement("label");l.style.display="block";
 l.innerHTML=`<input type="checkbox" value="${v}"> ${v}`;f.appendChild(l);l.querySelector("input").addEventListener("change",render)}}
box("styles",STYLES);box("colors",COLORS);
function checked(id){return [...document.querySelectorAll(`#${id} input:checked`)].map(i=>i.value)}
function esc(s){return String(s).replace(/[&<>"']/g,c=>({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"}[c]))}
document.getElementById("room").addEventListener("change",e=>{const f=e.target.files[0];if(!f){roomB64=null;return}
 if(f.size>10*1024*1024){status("The photo is over 10 MB.");e.target.value="";return}
 const r=new FileReader();r.onload=()=>{roomB64=r.result.split(",")[1];roomImg=new Image();roomImg.src=r.result};r.readAsDataURL(f)});
function status(t){document.getElementById("status").textContent=t}
async function find(){const q=document.getElementById("query").value.trim();
 if(!q&&!roomB64){status("Describe what you want or add a room photo.");return}
 const mode=q&&roomB64?"combined":q?"text":"image";status("Finding art…");
 try{const res=await fetch(`/api/search/${mode}`,{method:"POST",headers:{"Content-Type":"application/json"},
   body:JSON.stringify({query:q||undefined,imageBase64:roomB64||undefined,limit:60})});
  const j=await res.json();if(!res.ok){status(j.error||"Search failed");return}
  all=j.results;status(`${j.count} found`+(j.message?` — ${j.message}`:""));render()}catch(e){status("Search failed: "+e)}}
document.getElementById("find").addEventListener("click",find);
document.getElementById("query").addEventListener("keydown",e=>{if(e.key==="Enter")find()});
for(const id of ["pmin","pmax","artist"])document.getElementById(id).addEventListener("input",render);
document.getElementById("sort").addEventListener("change",render);
document.getElementById("clear").addEventListener("click",()=>{for(const i of document.querySelectorAll("aside input[type=checkbox]"))i.checked=false;
 for(const id of ["pmin","pmax","artist"])document.getElementById(id).value="";render()});
function seeded(seed){return()=>{seed=(seed*1664525+1013904223)>>>0;return seed/4294967296}}
function render(){const pmin=parseFloat(document.getElementById("pmin").value),pmax=parseFloat(document.getElementById("pmax").value);
 const st=checked("styles"),co=checked("colors"),ar=document.getElementById("artist").value.trim().toLowerCase();
 let r=all.filter(m=>{const a=m.artwork,an=m.analysis||{};
  if(!isNaN(pmin)&&a.price<pmin)return false;if(!isNaN(pmax)&&a.price>pmax)return false;
  if(st.length&&!st.some(s=>(an.styleAndGenre?.styles||[]).includes(s)))return false;
  if(co.length){const fams=(an.measured?.colours||[]).filter(c=>c.share>=0.08).map(c=>c.family);if(!co.some(c=>fams.includes(c)))return false}
  if(ar&&!a.studioName.toLowerCase().includes(ar))return false;return true});
 const s=document.getElementById("sort").value;
 if(s==="price_asc")r.sort((x,y)=>x.artwork.price-y.artwork.price);else if(s==="price_desc")r.sort((x,y)=>y.artwork.price-x.artwork.price);
 else if(s==="newest")r.sort((x,y)=>(y.artwork.year||0)-(x.artwork.year||0));
 else if(s==="random"){const rnd=seeded(42);r=r.map(m=>[rnd(),m]).sort((a,b)=>a[0]-b[0]).map(p=>p[1])}else r.sort((x,y)=>y.score-x.score);
 const g=document.getElementById("grid");g.innerHTML="";
 if(!r.length){g.innerHTML="<p>No artworks match your filters.</p>";return}
 for(const m of r){const a=m.artwork,d=document.createElement("div");d.className="card";d.dataset.id=a.objectID;
  d.innerHTML=`<img alt="${esc(a.title)}" src="/api/artworks/${encodeURIComponent(a.objectID)}/image"><span class="badge ${m.confidence}">${Math.round(m.score)}% match</span>
  <div class="body"><h3>${esc(a.title)}</h3><div>${esc(a.studioName)}</div><div class="price">${esc(a.currency)} ${a.price.toLocaleString("en")}</div>
  <ul>${m.reasons.map(x=>`<li>${esc(x)}</li>`).join("")}</ul><button class="inroom">View in Room</button></div>`;
  d.querySelector(".inroom").addEventListener("click",()=>openViz(m));g.appendChild(d)}}
// Visualizer: the artwork over the room photo; drag to move, buttons and slider for the rest.
let V=null;
function openViz(m){if(!roomImg){status("Add a room photo first to see the artwork in it.");return}
 const art=new Image();art.src=`/api/artworks/${encodeURIComponent(m.artwork.objectID)}/image`;
 V={m,art,x:0.5,y:0.4,scale:0.3,rot:0,opacity:1,grid:false,lock:true,stretch:1};
 document.getElementById("viz").style.display="block";document.getElementById("vtitle").textContent=m.artwork.title;
 art.onload=draw;draw();document.getElementById("viz").scrollIntoView()}
function draw(){if(!V)return;const c=document.getElementById("canvas"),ctx=c.getContext("2d");
 const s=Math.min(960/roomImg.width,640/roomImg.height);c.width=Math.round(roomImg.width*s);c.height=Math.round(roomImg.height*s);
 ctx.globalAlpha=1;ctx.drawImage(roomImg,0,0,c.width,c.height);
 if(V.art.complete&&V.art.naturalWidth){const turned=V.rot%2===1;const aw=turned?V.art.naturalHeight:V.art.naturalWidth,ah=turned?V.art.naturalWidth:V.art.naturalHeight;
  const w=V.scale*c.width,h=w*ah/aw*(V.lock?1:V.stretch);ctx.save();ctx.globalAlpha=V.opacity;ctx.translate(V.x*c.width,V.y*c.height);ctx.rotate(V.rot*Math.PI/2);
  const dw=turned?h:w,dh=turned?w:h;ctx.drawImage(V.art,-dw/2,-dh/2,dw,dh);ctx.restore()}
 if(V.grid){ctx.globalAlpha=0.5;ctx.strokeStyle="#fff";for(let k=1;k<10;k++){ctx.beginPath();ctx.moveTo(k*c.width/10,0);ctx.lineTo(k*c.width/10,c.height);
  ctx.moveTo(0,k*c.height/10);ctx.lineTo(c.width,k*c.height/10);ctx.stroke()}ctx.globalAlpha=1}}
const cv=document.getElementById("canvas");let dragging=false;
cv.addEventListener("pointerdown",e=>{dragging=true;cv.setPointerCapture(e.pointerId)});
cv.addEventListener("pointermove",e=>{if(!dragging||!V)return;const r=cv.getBoundingClientRect();V.x=Math.min(1,Math.max(0,(e.clientX-r.left)/r.width));V.y=Math.min(1,Math.max(0,(e.clientY-r.top)/r.height));draw()});
cv.addEventListener("pointerup",()=>dragging=false);
document.getElementById("rot").addEventListener("click",()=>{V.rot=(V.rot+1)%4;draw()});
document.getElementById("zin").addEventListener("click",()=>{if(V.lock)V.scale=Math.min(1,V.scale*1.15);else V.stretch=Math.min(5,V.stretch*1.15);draw()});
document.getElementById("zout").addEventListener("click",()=>{if(V.lock)V.scale=Math.max(0.02,V.scale/1.15);else V.stretch=Math.max(0.2,V.stretch/1.15);draw()});
document.getElementById("gridon").addEventListener("change",e=>{V.grid=e.target.checked;draw()});
document.getElementById("lock").addEventListener("change",e=>{V.lock=e.target.checked;draw()});
document.getElementById("opacity").addEventListener("input",e=>{V.opacity=e.target.value/100;draw()});
document.getElementById("vclose").addEventListener("click",()=>{document.getElementById("viz").style.display="none";V=null});
document.getElementById("download").addEventListener("click",async()=>{
 const res=await fetch("/api/visualize",{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify({artworkId:V.m.artwork.objectID,
  imageBase64:roomB64,x:V.x,y:V.y,scale:V.scale,rotation:V.rot,opacity:V.opacity,aspectLock:V.lock,stretch:V.stretch,grid:V.grid})});
 if(!res.ok){status((await res.json()).error);return}const b=await res.blob();window.lastComposite={size:b.size,type:b.type};const a=document.createElement("a");a.href=URL.createObjectURL(b);
 a.download="composite.jpg";document.body.appendChild(a);a.click();a.remove();status("Composite downloaded.")});
</script></body></html>
"""#
}
