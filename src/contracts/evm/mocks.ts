import { SOLC_VERSION } from './contract.js';

/**
 * Minimal ERC-20 and ERC-721 tokens used to execute token claims in the VM.
 * Their runtime code is installed at the plan's token addresses, so the
 * contract is exercised with its real constructor arguments. Not generated
 * output: fixed test doubles compiled once per pool.
 */
export const MOCK_ERC20_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

contract MockERC20 {
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        require(balanceOf[msg.sender] >= amount, "balance");
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }
}
`;

export const MOCK_ERC721_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data) external returns (bytes4);
}

contract MockERC721 {
    mapping(uint256 => address) public ownerOf;
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    function mint(address to, uint256 tokenId) external {
        require(ownerOf[tokenId] == address(0), "minted");
        ownerOf[tokenId] = to;
        emit Transfer(address(0), to, tokenId);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        require(ownerOf[tokenId] == from && from == msg.sender, "owner");
        require(to != address(0), "zero");
        ownerOf[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        transferFrom(from, to, tokenId);
        if (to.code.length > 0) {
            require(IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, "") == IERC721Receiver.onERC721Received.selector, "receiver");
        }
    }
}
`;
